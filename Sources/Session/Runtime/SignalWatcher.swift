#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Dispatch
import Synchronization

/// SIGINT and SIGTERM as Dispatch events instead of deaths: while a watcher exists, the signals'
/// default action is off (SIG_IGN, as Dispatch signal sources require) and each arrival calls
/// `handler` on `queue`. Watchers nest (tests run sessions side by side in one process): the first
/// one saves the previous dispositions, the last one to go restores them.
public final class SignalWatcher: @unchecked Sendable {
    public static let stopSignals: [Int32] = [SIGINT, SIGTERM]

    /// `signal → (watchers, disposition before the first)`; shared by every watcher in the process.
    private static let installed = Mutex<[Int32: (count: Int, previous: sigaction)]>([:])

    private let signals: [Int32]
    // Written in init and cancel only (cancel is guarded by `cancelled`).
    private var sources: [any DispatchSourceSignal] = []
    private let cancelled = Atomic<Bool>(false)

    public init(signals: [Int32] = stopSignals, queue: DispatchQueue, handler: @escaping @Sendable (Int32) -> Void) {
        self.signals = signals
        Self.installed.withLock { installed in
            for number in signals {
                if let entry = installed[number] {
                    installed[number] = (entry.count + 1, entry.previous)
                } else {
                    var ignore = sigaction()
                    ignore.__sigaction_handler.sa_handler = SIG_IGN
                    var previous = sigaction()
                    sigaction(number, &ignore, &previous)
                    installed[number] = (1, previous)
                }
            }
        }
        // A parent may have started us with these blocked (a test runner's thread, some shells'
        // background jobs); threads created from now on inherit this thread's mask.
        var unblock = sigset_t()
        sigemptyset(&unblock)
        for number in signals { sigaddset(&unblock, number) }
        pthread_sigmask(SIG_UNBLOCK, &unblock, nil)
        for number in signals {
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler { handler(number) }
            source.resume()
            sources.append(source)
        }
    }

    deinit { cancel() }

    /// Stops watching; the last watcher restores the dispositions it found.
    public func cancel() {
        guard !cancelled.exchange(true, ordering: .acquiringAndReleasing) else { return }
        for source in sources { source.cancel() }
        Self.installed.withLock { installed in
            for number in signals {
                guard let entry = installed[number] else { continue }
                if entry.count > 1 {
                    installed[number] = (entry.count - 1, entry.previous)
                } else {
                    var previous = entry.previous
                    sigaction(number, &previous, nil)
                    installed[number] = nil
                }
            }
        }
    }

    /// `SIGINT`, `SIGTERM`, else `signal N`.
    public static func name(_ number: Int32) -> String {
        switch number {
        case SIGINT: "SIGINT"
        case SIGTERM: "SIGTERM"
        default: "signal \(number)"
        }
    }
}
