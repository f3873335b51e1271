import Dispatch
import Synchronization

/// Fires once when no value was fed for `timeout` (up to a quarter more), whatever `Connected`
/// says. Feeding only sets a flag: no clock read and no timer change per value (a clock read is a
/// system call where the clock source is not the TSC, as in VMs). A timer checks the flag
/// `checksPerTimeout` times per timeout; that many checks in a row without a value mean silence.
final class SilenceWatchdog: @unchecked Sendable { // `quietChecks` is touched on the timer's queue only
    private let timer: DispatchSourceTimer
    private let fed = Atomic<Bool>(false)
    private var quietChecks = 0

    /// Checks per timeout: silence is seen between `timeout` and `timeout × (1 + 1/checks)` after
    /// the last value, for a wake-up every `timeout / checks`.
    static let checksPerTimeout = 4

    init(timeout: Duration, queue: DispatchQueue, onSilence: @escaping @Sendable () -> Void) {
        timer = DispatchSource.makeTimerSource(queue: queue)
        let nanoseconds = Int(timeout.components.seconds) * 1_000_000_000 + Int(timeout.components.attoseconds / 1_000_000_000)
        let period = DispatchTimeInterval.nanoseconds(max(1, nanoseconds / Self.checksPerTimeout))
        timer.setEventHandler { [weak self] in
            guard let self else { return }
            if fed.exchange(false, ordering: .relaxed) {
                quietChecks = 0
                return
            }
            quietChecks += 1
            guard quietChecks >= Self.checksPerTimeout else { return }
            timer.cancel()
            onSilence()
        }
        timer.schedule(deadline: .now() + period, repeating: period)
        timer.resume()
    }

    func feed() { fed.store(true, ordering: .relaxed) }

    func stop() { timer.cancel() }

    deinit { timer.cancel() }
}
