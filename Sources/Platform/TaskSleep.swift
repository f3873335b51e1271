import Dispatch
import Synchronization

/// `Task.sleep(for:)` on a serial queue of our own. Swift 6.3's `Task.sleep` hands its timer to
/// libdispatch's global pool directly (past the executor hooks `TaskQueue` sets), and that pool's
/// first use starts a monitor that wakes the process every second for the rest of its life.
public enum TaskSleep {
    private static let timers = DispatchQueue(label: "hrbridge.sleep")

    /// Returns after `duration`; throws `CancellationError` as soon as the task is cancelled. A
    /// cancelled sleep's timer is taken off the kernel's list: a timeout that was not needed (a wait
    /// satisfied early) does not wake the process later, nor start pool threads to say so.
    public static func sleep(for duration: Duration) async throws(CancellationError) {
        let sleeper = Sleeper()
        let woken: Bool = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                sleeper.wait(continuation, for: duration.wholeNanoseconds, on: timers)
            }
        } onCancel: {
            sleeper.end(woken: false)
        }
        if !woken { throw CancellationError() }
    }
}

/// One sleep's continuation, resumed exactly once: by its timer or by cancellation, whichever
/// comes first (cancellation may come before the continuation exists).
private final class Sleeper: Sendable {
    private enum State {
        case starting
        case waiting(CheckedContinuation<Bool, Never>, DispatchSourceTimer)
        case over
    }

    private let state = Mutex<State>(.starting)

    /// Arms the timer, unless the sleep was cancelled before it began (then resumes at once).
    func wait(_ continuation: CheckedContinuation<Bool, Never>, for nanoseconds: Int64, on queue: DispatchQueue) {
        let began = state.withLock { state in
            guard case .starting = state else { return false }
            let timer = DispatchSource.makeTimerSource(queue: queue)
            timer.setEventHandler { [self] in end(woken: true) }
            timer.schedule(deadline: .now() + .nanoseconds(Int(max(0, nanoseconds))))
            timer.resume()
            state = .waiting(continuation, timer)
            return true
        }
        if !began { continuation.resume(returning: false) }
    }

    func end(woken: Bool) {
        let continuation = state.withLock { state -> CheckedContinuation<Bool, Never>? in
            defer { state = .over }
            guard case let .waiting(continuation, timer) = state else { return nil }
            timer.cancel() // also drops its handler, which holds this sleeper
            return continuation
        }
        continuation?.resume(returning: woken)
    }
}
