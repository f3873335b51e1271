#if canImport(Glibc)
import Glibc
#endif
import Dispatch
import FoundationEssentials
import SessionState

/// What `replay --speed` and `run` share around their live sessions: SIGINT/SIGTERM go to every
/// session, each starts (recovering first), the command waits for all, and how they ended becomes
/// the error it throws, if any (the command's exit status; docs/service.md, "Shutdown and recovery").
public enum SessionRunner {
    public static func run(_ sessions: [LiveSession]) throws(SessionError) {
        let watcher = SignalWatcher(queue: DispatchQueue(label: "hrbridge.signals")) { signal in
            for session in sessions { session.stop(signal: signal) }
        }
        defer { watcher.cancel() }
        for (index, session) in sessions.enumerated() {
            do {
                try session.start()
            } catch {
                // Stop the ones already running in order rather than leave them behind.
                for started in sessions[..<index] { started.stop(signal: SIGTERM) }
                _ = sessions[..<index].map { $0.wait() }
                throw error
            }
        }
        let endings = sessions.map { $0.wait() }
        if let failure = sessions.lazy.compactMap(\.settledFailure).first { throw failure }
        for ending in endings {
            switch ending {
            case let .hurried(signal):
                throw .hurried(signal: signal)
            case .failed:
                throw .unwritable("the session failed")
            case .sourceEnded, .stopped:
                continue
            }
        }
        if let signal = endings.lazy.compactMap({ ending -> Int32? in
            if case let .stopped(signal) = ending { return signal }
            return nil
        }).first {
            throw .stopped(signal: signal)
        }
    }
}
