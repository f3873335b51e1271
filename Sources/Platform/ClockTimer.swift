#if canImport(Glibc)
import Glibc
#endif
import CSystem
import Dispatch
import Synchronization

/// A one-shot timer: a timerfd the process's `EventLoop` waits on. Setting it is one
/// timerfd_settime(2) from any thread: the loop is not woken to learn the new time. Firing wakes
/// the loop's thread alone, which runs `fire` on `queue` with `sync` (inline when the queue is idle,
/// as the notification sockets' values are), or right there when there is no queue.
///
/// Why not a DispatchSourceTimer: libdispatch wakes its manager thread, which hands the handler to
/// a worker thread, created anew when the last one idled out after 5 s. A bridge whose deadline
/// moves with every sample (the silence timeout) fires a timer every 10 s or so: that is three
/// wake-ups and a new thread each time, more than the 1 Hz strap's own notifications cost. Why not
/// a thread of its own: three a sensor (its silence watchdog, its session's deadline, its socket),
/// where one loop does the same with the same wake-ups.
public final class ClockTimer: Sendable {
    public enum Clock: Sendable {
        /// CLOCK_REALTIME: counts a suspend, so a deadline that passed while the machine slept fires at resume.
        case wall
        /// CLOCK_MONOTONIC.
        case monotonic
    }

    private let timer: TimerDescriptor

    public init(_ clock: Clock, queue: DispatchQueue?, fire: @escaping @Sendable () -> Void) {
        // Non-blocking: the loop must never sleep in a read that a new setting made empty.
        let descriptor = timerfd_create(clock == .wall ? CLOCK_REALTIME : CLOCK_MONOTONIC, Int32(TFD_CLOEXEC | TFD_NONBLOCK))
        precondition(descriptor >= 0, "timerfd_create failed: errno \(errno)")
        let timer = TimerDescriptor(descriptor)
        self.timer = timer
        EventLoop.shared.watch(descriptor, ready: {
            var expirations: UInt64 = 0
            let count = read(descriptor, &expirations, MemoryLayout<UInt64>.size)
            guard timer.open.withLock({ $0 }) else { return false }
            guard count == MemoryLayout<UInt64>.size else { return true } // set again since it fired: not due
            if let queue { queue.sync { fire() } } else { fire() }
            return true
        }, ended: {
            timer.open.withLock { isOpen in
                isOpen = false
                close(descriptor)
            }
        })
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

    /// No more firing; the loop lets the timer go (a `fire` already running finishes).
    public func cancel() {
        var now = itimerspec(it_interval: timespec(), it_value: timespec(tv_sec: 0, tv_nsec: 1))
        timer.open.withLock { isOpen in
            guard isOpen else { return }
            isOpen = false
            _ = timerfd_settime(timer.descriptor, Int32(TFD_TIMER_ABSTIME), &now, nil) // wakes the loop to end the watch
        }
    }

    deinit { cancel() }

    /// Now on `clock`, in nanoseconds since its epoch.
    public static func now(_ clock: Clock) -> Int64 {
        kernelNanoseconds(clock == .wall ? CLOCK_REALTIME : CLOCK_MONOTONIC)
    }
}

/// The timerfd, shared by the timer and the loop (which closes it when the watch ends).
private final class TimerDescriptor: Sendable {
    let descriptor: Int32
    /// False once cancelled or ended: from then on nothing may set the descriptor.
    let open = Mutex(true)

    init(_ descriptor: Int32) { self.descriptor = descriptor }
}
