import Dispatch
import Synchronization

/// `Task.sleep(for:)` on a serial queue of our own. Swift 6.3's `Task.sleep` hands its timer to
/// libdispatch's global pool directly (past the executor hooks `TaskQueue` sets), and that pool's
/// first use starts a monitor that wakes the process every second for the rest of its life.
public enum TaskSleep {
    private static let timers = DispatchQueue(label: "hrbridge.sleep")

    /// Returns after `duration`; throws `CancellationError` as soon as the task is cancelled.
    public static func sleep(for duration: Duration) async throws(CancellationError) {
        let sleeper = Sleeper()
        let nanoseconds = duration.wholeNanoseconds
        let woken: Bool = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                guard sleeper.wait(continuation) else { return }
                timers.asyncAfter(deadline: .now() + .nanoseconds(Int(max(0, nanoseconds)))) { sleeper.end(woken: true) }
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
        case waiting(CheckedContinuation<Bool, Never>)
        case over
    }

    private let state = Mutex<State>(.starting)

    /// False when the sleep was cancelled before it began (the continuation is resumed here).
    func wait(_ continuation: CheckedContinuation<Bool, Never>) -> Bool {
        let began = state.withLock { state in
            guard case .starting = state else { return false }
            state = .waiting(continuation)
            return true
        }
        if !began { continuation.resume(returning: false) }
        return began
    }

    func end(woken: Bool) {
        let continuation = state.withLock { state -> CheckedContinuation<Bool, Never>? in
            defer { state = .over }
            if case let .waiting(continuation) = state { return continuation }
            return nil
        }
        continuation?.resume(returning: woken)
    }
}
