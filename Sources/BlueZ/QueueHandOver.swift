import CDispatch
import Dispatch

/// Runs one fixed piece of work on a serial queue and waits for it: `DispatchQueue.sync`, without the
/// block. The event loop hands every value of an AcquireNotify socket over this way.
///
/// `sync(execute: DispatchWorkItem)` goes through libdispatch's path for blocks with private data (the
/// work item's flags): a block copy and release, the item's own invoke, the overlay's getter with its
/// exclusivity check, a thunk and its retain and release: a fifth of a notification's calls, each
/// dear after a wake-up in the realbluez VM (docs/performance.md, "Figures behind choices
/// in the code"). libdispatch's function form, `dispatch_sync_f`, runs a C function with a context
/// pointer on the same queue, with the same guarantees (the queue's order, `dispatchPrecondition`),
/// in a handful.
///
/// The Swift overlay on Linux offers no way to its C queue. The first hand-over goes through a work
/// item and asks libdispatch, from within, which queue it runs on (`dispatch_get_current_queue`,
/// sound for a serial queue of our own); every later one calls the function form on that queue.
/// (Reading the overlay's stored property by reflection works too, but pulls the runtime's
/// reflection and demangling code into the resident set.)
final class QueueHandOver: @unchecked Sendable { // `target` is set once, by the first `run` (callers do not overlap)
    private let work: () -> Void
    private let queue: DispatchQueue
    /// The C queue, once the first hand-over has found it.
    private var target: dispatch_queue_t?

    init(queue: DispatchQueue, work: @escaping @Sendable () -> Void) {
        self.queue = queue
        self.work = work
    }

    /// Whether hand-overs now take the function form (from the second on).
    var usesFunctionForm: Bool { target != nil }

    /// Runs `work` on the queue; returns when it has run. Not called from two threads at once.
    func run() {
        guard let target else { return runFirst() }
        // The context is this object, kept alive by the caller for the call's length.
        dispatch_sync_f(target, Unmanaged.passUnretained(self).toOpaque()) { context in
            Unmanaged<QueueHandOver>.fromOpaque(context!).takeUnretainedValue().work()
        }
    }

    private func runFirst() {
        let item = DispatchWorkItem { [unowned self] in
            target = dispatch_get_current_queue()
            work()
        }
        queue.sync(execute: item)
    }
}
