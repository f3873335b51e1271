#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Dispatch
import Synchronization

/// SIGINT and SIGTERM as calls on a queue instead of deaths: while a watcher exists, each arrival
/// calls `handler` on `queue` (through `SignalPipe`). Watchers nest (tests run sessions side by side
/// in one process): the first one saves the previous dispositions, the last one to go restores them.
public final class SignalWatcher: Sendable {
    public static let stopSignals: [Int32] = [SIGINT, SIGTERM]

    private let id: Int
    private let cancelled = Atomic<Bool>(false)

    public init(signals: [Int32] = stopSignals, queue: DispatchQueue, handler: @escaping @Sendable (Int32) -> Void) {
        id = SignalPipe.add(SignalPipe.Watch(signals: signals, queue: queue, handler: handler))
        // A parent may have started us with these blocked (a test runner's thread, some shells'
        // background jobs): then no thread would take them. Threads created from now on inherit
        // this thread's mask.
        var unblock = sigset_t()
        sigemptyset(&unblock)
        for number in signals { sigaddset(&unblock, number) }
        pthread_sigmask(SIG_UNBLOCK, &unblock, nil)
    }

    deinit { cancel() }

    /// Stops watching; the last watcher restores the dispositions it found.
    public func cancel() {
        guard !cancelled.exchange(true, ordering: .acquiringAndReleasing) else { return }
        SignalPipe.remove(id)
    }
}
