import CSystem
#if canImport(Glibc)
import Glibc
#endif

/// A mutex with a condition variable (pthread), for a thread that sleeps until there is work or a
/// deadline: what NSCondition gives, without Foundation. Timed waits run on CLOCK_MONOTONIC, so a
/// wall-clock step does not wake them early or late.
public final class ConditionLock: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    public init() {
        pthread_mutex_init(mutex, nil)
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
        pthread_cond_init(condition, &attributes)
        pthread_condattr_destroy(&attributes)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    public func lock() { pthread_mutex_lock(mutex) }
    public func unlock() { pthread_mutex_unlock(mutex) }
    public func broadcast() { pthread_cond_broadcast(condition) }
    public func wait() { pthread_cond_wait(condition, mutex) }

    /// Waits until woken or `deadline` (monotonic seconds, `MonotonicClock.seconds()`); false when the deadline passed.
    @discardableResult
    public func wait(until deadline: Double) -> Bool {
        guard deadline.isFinite else { wait(); return true }
        let whole = deadline.rounded(.down)
        var time = timespec(tv_sec: Int(whole), tv_nsec: Int((deadline - whole) * 1_000_000_000))
        return pthread_cond_timedwait(condition, mutex, &time) == 0
    }
}

/// Seconds on CLOCK_MONOTONIC: for deadlines a wall-clock step must not move.
public enum MonotonicClock {
    public static func seconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1_000_000_000
    }
}

/// Starts a thread of its own running `body` (a sink's delivery loop), named for `top` and debuggers.
public enum NamedThread {
    public static func start(_ name: String, _ body: @escaping @Sendable () -> Void) {
        let box = Unmanaged.passRetained(ThreadBody(name: name, body)).toOpaque()
        var thread = pthread_t()
        let created = pthread_create(&thread, nil, { argument in
            let thread = Unmanaged<ThreadBody>.fromOpaque(argument!).takeRetainedValue()
            _ = hr_name_this_thread(String(thread.name.utf8.prefix(15)) ?? "hrbridge")
            thread.body()
            return nil
        }, box)
        precondition(created == 0, "pthread_create failed: \(created)")
        pthread_detach(thread)
    }
}

/// What a `NamedThread` runs, passed through pthread_create's one pointer.
private final class ThreadBody: Sendable {
    let name: String
    let body: @Sendable () -> Void
    init(name: String, _ body: @escaping @Sendable () -> Void) {
        self.name = name
        self.body = body
    }
}
