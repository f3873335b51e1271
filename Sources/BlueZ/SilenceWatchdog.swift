import Dispatch
import Synchronization

/// Fires once when no value was fed for `timeout`, whatever `Connected` says. One timer,
/// re-armed only when it fires (not on every notification), so a 50 Hz stream costs one
/// clock read per value.
final class SilenceWatchdog: @unchecked Sendable { // the timer is only touched on its queue or cancelled (thread-safe)
    private let timer: DispatchSourceTimer
    private let lastFed: Mutex<DispatchTime>
    private let timeout: Duration

    init(timeout: Duration, queue: DispatchQueue, onSilence: @escaping @Sendable () -> Void) {
        self.timeout = timeout
        lastFed = Mutex(.now())
        timer = DispatchSource.makeTimerSource(queue: queue)
        let nanoseconds = UInt64(timeout.components.seconds) * 1_000_000_000 + UInt64(timeout.components.attoseconds / 1_000_000_000)
        timer.setEventHandler { [weak self] in
            guard let self else { return }
            let deadline = lastFed.withLock { $0 } + .nanoseconds(Int(nanoseconds))
            if deadline > .now() {
                timer.schedule(deadline: deadline)
            } else {
                timer.cancel()
                onSilence()
            }
        }
        timer.schedule(deadline: .now() + .nanoseconds(Int(nanoseconds)))
        timer.resume()
    }

    func feed() { lastFed.withLock { $0 = .now() } }

    func stop() { timer.cancel() }

    deinit { timer.cancel() }
}
