import CDispatch
import Dispatch

/// Runs one fixed piece of work on a serial queue and waits for it: `DispatchQueue.sync`, without the
/// block. The reader thread of an AcquireNotify socket hands every value over this way.
///
/// `sync(execute: DispatchWorkItem)` goes through libdispatch's path for blocks with private data (the
/// work item's flags): a block copy and release, the item's own invoke, the overlay's getter with its
/// exclusivity check, a thunk and its retain and release: thirteen calls a notification of the
/// path's 65 (callgrind). Under the realbluez VM's emulation each call taken after a wake-up costs
/// ~0.7–0.9 µs of guest CPU (`scripts/realbluez-calibrate`). libdispatch's function form,
/// `dispatch_sync_f`, runs a C function with a context pointer on the same queue, with the same
/// guarantees (the queue's order, `dispatchPrecondition`), in five.
///
/// The Swift overlay on Linux keeps the C queue in a stored property of its own and offers no way to
/// it: it is read once, by reflection. Should a toolchain name it differently, the hand-over falls
/// back to the work item (`usesFunctionForm` says which; a test checks this toolchain's).
final class QueueHandOver: @unchecked Sendable { // immutable after init; `work` runs on `queue` only
    private let queue: DispatchQueue
    private let work: () -> Void
    /// The C queue, when reflection found it.
    private let target: dispatch_queue_t?
    private let fallback: DispatchWorkItem?

    init(queue: DispatchQueue, work: @escaping @Sendable () -> Void) {
        self.queue = queue
        self.work = work
        target = Mirror(reflecting: queue).children.first { $0.label == "__wrapped" }?.value as? dispatch_queue_t
        // A work item's block is made once; a closure handed to `sync` would be made into a block anew each time.
        fallback = target == nil ? DispatchWorkItem(block: work) : nil
    }

    var usesFunctionForm: Bool { target != nil }

    /// Runs `work` on the queue; returns when it has run.
    func run() {
        guard let target else { return queue.sync(execute: fallback!) }
        // The context is this object, kept alive by the caller for the call's length.
        dispatch_sync_f(target, Unmanaged.passUnretained(self).toOpaque()) { context in
            Unmanaged<QueueHandOver>.fromOpaque(context!).takeUnretainedValue().work()
        }
    }
}
