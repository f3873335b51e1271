import Dispatch
import Foundation

/// What `replay --speed` and `run` share around their live sessions: SIGINT/SIGTERM go to every
/// session, each starts (recovering first), the command waits for all, and how they ended becomes
/// the exit status (README "Shutdown and recovery").
enum SessionRunner {
    static func run(_ sessions: [LiveSession], console: Console) throws(CLIError) {
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
        if let failure = sessions.lazy.compactMap(\.failure).first { throw failure }
        for ending in endings {
            switch ending {
            case let .hurried(signal):
                throw .temporaryFailure("\(SignalWatcher.name(signal)) again: stopped without waiting for the sinks; "
                    + "activities not confirmed ended stay in the state file for the next run")
            case .failed:
                throw .cannotCreate("the session failed")
            case .sourceEnded, .stopped:
                continue
            }
        }
        if let signal = endings.lazy.compactMap({ ending -> Int32? in
            if case let .stopped(signal) = ending { return signal }
            return nil
        }).first {
            throw .stopped("stopped by \(SignalWatcher.name(signal)): activity ended, sinks flushed",
                           signal == SIGINT ? .interrupted : .terminated)
        }
    }
}
