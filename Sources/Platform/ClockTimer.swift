#if canImport(Glibc)
import Glibc
#endif
import CSystem
import Dispatch
import Synchronization

/// A one-shot timer on a thread of its own that sleeps in read(2) on a timerfd. Setting it is one
/// timerfd_settime(2) from any thread: the sleeping thread is not woken to learn the new time.
/// Firing wakes that thread alone, which runs `fire` on `queue` with `sync` (inline when the queue
/// is idle, as the notification socket's thread does), or right there when there is no queue.
///
/// Why not a DispatchSourceTimer: libdispatch wakes its manager thread, which hands the handler to
/// a worker thread, created anew when the last one idled out after 5 s. A bridge whose deadline
/// moves with every sample (the silence timeout) fires a timer every 10 s or so: that was three
/// wake-ups and a new thread each time, more than the 1 Hz strap's own notifications cost.
public final class ClockTimer: Sendable {
    public enum Clock: Sendable {
        /// CLOCK_REALTIME: counts a suspend, so a deadline that passed while the machine slept fires at resume.
        case wall
        /// CLOCK_MONOTONIC.
        case monotonic
    }

    private let timer: TimerDescriptor

    public init(_ clock: Clock, name: String, queue: DispatchQueue?, fire: @escaping @Sendable () -> Void) {
        let timer = TimerDescriptor(timerfd_create(clock == .wall ? CLOCK_REALTIME : CLOCK_MONOTONIC, Int32(TFD_CLOEXEC)))
        precondition(timer.descriptor >= 0, "timerfd_create failed: errno \(errno)")
        self.timer = timer
        NamedThread.start(name) {
            var expirations: UInt64 = 0
            while true {
                let count = read(timer.descriptor, &expirations, MemoryLayout<UInt64>.size)
                if count < 0, errno == EINTR { continue }
                guard count == MemoryLayout<UInt64>.size, timer.open.withLock({ $0 }) else { break }
                if let queue { queue.sync { fire() } } else { fire() }
            }
            timer.open.withLock { isOpen in
                isOpen = false
                close(timer.descriptor)
            }
        }
    }

    /// Fires once at `nanoseconds` since the clock's epoch (at once if that has passed); replaces
    /// any time set before.
    public func schedule(atNanoseconds nanoseconds: Int64) {
        let (seconds, fraction) = max(1, nanoseconds).quotientAndRemainder(dividingBy: 1_000_000_000)
        var setting = itimerspec(it_interval: timespec(), it_value: timespec(tv_sec: Int(seconds), tv_nsec: Int(fraction)))
        timer.open.withLock { isOpen in
            if isOpen { _ = timerfd_settime(timer.descriptor, Int32(TFD_TIMER_ABSTIME), &setting, nil) }
        }
    }

    /// Not set: it fires only when scheduled again.
    public func disarm() {
        var never = itimerspec()
        timer.open.withLock { isOpen in
            if isOpen { _ = timerfd_settime(timer.descriptor, 0, &never, nil) }
        }
    }

    /// No more firing; the thread ends (a `fire` already running finishes).
    public func cancel() {
        var now = itimerspec(it_interval: timespec(), it_value: timespec(tv_sec: 0, tv_nsec: 1))
        timer.open.withLock { isOpen in
            guard isOpen else { return }
            isOpen = false
            _ = timerfd_settime(timer.descriptor, Int32(TFD_TIMER_ABSTIME), &now, nil) // wakes the thread to end
        }
    }

    deinit { cancel() }

    /// Now on `clock`, in nanoseconds since its epoch.
    public static func now(_ clock: Clock) -> Int64 {
        kernelNanoseconds(clock == .wall ? CLOCK_REALTIME : CLOCK_MONOTONIC)
    }
}

/// The timerfd, shared by the timer and its thread (which closes it when it ends).
private final class TimerDescriptor: Sendable {
    let descriptor: Int32
    /// False once cancelled or ended: from then on nothing may set the descriptor.
    let open = Mutex(true)

    init(_ descriptor: Int32) { self.descriptor = descriptor }
}
