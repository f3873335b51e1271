#if canImport(Glibc)
import Glibc
#endif
import Dispatch

/// SIGINT and SIGTERM as a callback (via dispatch sources, so no work in a signal handler).
/// They are unblocked first: a parent (a test runner, a service manager) may have left them
/// blocked in the mask we inherited.
final class ShutdownSignals: @unchecked Sendable {
    private var sources: [DispatchSourceSignal] = []

    init(queue: DispatchQueue = .global(), onSignal: @escaping @Sendable (Int32) -> Void) {
        var mask = sigset_t()
        sigemptyset(&mask)
        for number in [SIGINT, SIGTERM] {
            sigaddset(&mask, number)
            signal(number, SIG_IGN) // the dispatch source sees it; the default action must not kill us
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler { onSignal(number) }
            source.resume()
            sources.append(source)
        }
        pthread_sigmask(SIG_UNBLOCK, &mask, nil)
    }

    deinit { for source in sources { source.cancel() } }
}
