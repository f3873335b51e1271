#if canImport(Glibc)
import Glibc
#endif
import CSystem
import Dispatch

/// Swift concurrency's global executor, moved onto one serial dispatch queue.
///
/// On Linux the default global executor is libdispatch's global concurrent queue. libdispatch
/// watches that queue's worker threads with a timer that fires every second for the rest of the
/// process (`_dispatch_workq_monitor_pools`), from the first task on: a bridge waiting for a
/// 1 Hz strap woke twice a second instead of once. A serial queue runs on threads libdispatch does
/// not watch (its overcommit pool), so between notifications the bridge sleeps.
///
/// One queue is enough: the bridge's async code waits for the bus, for sockets and for timers and
/// never blocks a thread (blocking waits are on threads of their own: `runBlocking` callers, the
/// delivery workers). Install it in the executable only, before the first task: in-process tests
/// keep the default executor.
public enum TaskQueue {
    private typealias Enqueue = @convention(thin) (UnownedJob) -> Void
    private typealias EnqueueHook = @convention(thin) (UnownedJob, Enqueue) -> Void
    private typealias EnqueueAfter = @convention(thin) (UInt64, UnownedJob) -> Void
    private typealias EnqueueAfterHook = @convention(thin) (UInt64, UnownedJob, EnqueueAfter) -> Void
    private typealias EnqueueAt = @convention(thin) (Int64, Int64, Int64, Int64, Int32, UnownedJob) -> Void
    private typealias EnqueueAtHook = @convention(thin) (Int64, Int64, Int64, Int64, Int32, UnownedJob, EnqueueAt) -> Void

    public static func install() {
        swift_task_enqueueGlobal_hook = unsafeBitCast(enqueue, to: UnsafeMutableRawPointer.self)
        swift_task_enqueueGlobalWithDelay_hook = unsafeBitCast(enqueueAfter, to: UnsafeMutableRawPointer.self)
        swift_task_enqueueGlobalWithDeadline_hook = unsafeBitCast(enqueueAt, to: UnsafeMutableRawPointer.self)
    }

    private static let enqueue: EnqueueHook = { job, _ in TaskQueueExecutor.shared.run(job) }

    private static let enqueueAfter: EnqueueAfterHook = { nanoseconds, job, _ in TaskQueueExecutor.shared.run(job, after: nanoseconds) }

    /// A sleep's tolerance (the third and fourth values) is a hint: the job runs at the deadline.
    private static let enqueueAt: EnqueueAtHook = { seconds, nanoseconds, _, _, clock, job, _ in
        let due = seconds * 1_000_000_000 + nanoseconds
        TaskQueueExecutor.shared.run(job, after: UInt64(max(0, due - swiftClockNow(clock))))
    }

    /// Now on a Swift clock, in nanoseconds: the runtime's continuous clock (1) is CLOCK_BOOTTIME on
    /// Linux, the suspending clock (2) CLOCK_MONOTONIC (the runtime's Clock.cpp).
    private static func swiftClockNow(_ clock: Int32) -> Int64 {
        kernelNanoseconds(clock == 1 ? CLOCK_BOOTTIME : CLOCK_MONOTONIC)
    }
}

/// The serial executor the hooks hand every global job to.
private final class TaskQueueExecutor: SerialExecutor {
    static let shared = TaskQueueExecutor()
    private let queue = DispatchQueue(label: "hrbridge.tasks")

    func enqueue(_ job: consuming ExecutorJob) { run(UnownedJob(job)) }

    func run(_ job: UnownedJob) {
        queue.async { job.runSynchronously(on: self.asUnownedSerialExecutor()) }
    }

    func run(_ job: UnownedJob, after nanoseconds: UInt64) {
        let delay = DispatchTimeInterval.nanoseconds(Int(min(nanoseconds, UInt64(Int.max))))
        queue.asyncAfter(deadline: .now() + delay) { job.runSynchronously(on: self.asUnownedSerialExecutor()) }
    }
}
