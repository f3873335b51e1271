import Platform
import Sensors
import Synchronization

/// Fires once when no value came for `timeout`, whatever `Connected` says. Feeding stores the
/// value's time (the kernel's stamp on the socket path: no clock read, no timer change per value).
/// One one-shot timer wakes at the last known value's time + `timeout`; if a value came since, it
/// sets itself for that one's. While values flow that is one wake-up per timeout, and silence is
/// seen `timeout` after the last value. The check runs on the event loop, with no queue (the time is
/// an atomic, `onSilence` must be callable from any thread): at 1 Hz it falls on the instant of a
/// notification, and on the link's queue it would wait for the reader's value, or the reader for it.
///
/// Late values are not silence: the socket's reader stamps each value into the watchdog as soon as
/// it has read it (before it waits for the link's queue), and values still waiting in the socket
/// (the reader is held up by a busy consumer, or just woke) put the verdict off. A consumer busy
/// longer than the timeout would otherwise have its flowing strap declared lost.
///
/// Why not the AcquireNotify socket's receive timeout (SO_RCVTIMEO), which needs no timer at all: a
/// blocking receive with a timeout arms and cancels a kernel timer on every notification, which the
/// realbluez VM measured as a large share of the guest CPU per notification (docs/performance.md),
/// where this timer costs one wake-up per timeout.
final class SilenceWatchdog: Sendable {
    /// The newest value's time, in microseconds since the Unix epoch.
    private let lastValue: Atomic<Int64>
    private let timeout: Int64
    private let clock: @Sendable () -> Timestamp
    private let onSilence: @Sendable () -> Void
    private let timer = Mutex<ClockTimer?>(nil)
    /// Whether values wait to be read (the AcquireNotify socket's queue); nil on the StartNotify path.
    private let waiting = Mutex<(@Sendable () -> Bool)?>(nil)

    /// `clock`: the time the values' stamps are on (wall-clock time); `start`: when silence counts from.
    init(timeout: Duration, start: Timestamp, clock: @escaping @Sendable () -> Timestamp, onSilence: @escaping @Sendable () -> Void) {
        self.timeout = timeout.wholeNanoseconds / 1000
        self.clock = clock
        self.onSilence = onSilence
        lastValue = Atomic(start.microsecondsSinceUnixEpoch)
        let timer = ClockTimer(.wall, queue: nil) { [weak self] in self?.check() }
        self.timer.withLock { $0 = timer }
        timer.schedule(atNanoseconds: (start.microsecondsSinceUnixEpoch + self.timeout) * 1000)
    }

    /// Values arrive in order; a stamp from another clock that runs behind only makes silence come later.
    func feed(at time: Timestamp) { lastValue.store(time.microsecondsSinceUnixEpoch, ordering: .relaxed) }

    /// From now on, values waiting in `source` count as not silent.
    func watch(waiting source: @escaping @Sendable () -> Bool) { waiting.withLock { $0 = source } }

    func stop() { timer.withLock { $0?.cancel() } }

    deinit { stop() }

    private func check() {
        let due = lastValue.load(ordering: .relaxed) + timeout
        let now = clock().microsecondsSinceUnixEpoch
        guard now >= due else { return schedule(at: due) }
        // Values waiting: the reader feeds them soon, or a busy consumer holds it up. Ask again.
        if waiting.withLock({ $0?() }) == true { return schedule(at: now + timeout / 4) }
        stop()
        onSilence()
    }

    private func schedule(at microseconds: Int64) { timer.withLock { $0?.schedule(atNanoseconds: microseconds * 1000) } }
}
