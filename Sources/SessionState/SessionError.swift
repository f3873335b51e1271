#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Why a session could not start or go on. Each message says what failed and where (a path, a
/// bus, a strap) and, where there is one, what to do. The cause is the case, so that the command
/// line can give each its own exit status; the session itself knows nothing of exit statuses.
public enum SessionError: Error, Sendable {
    /// An input could not be opened or read: a trace, the APNs key, a token or credential file.
    case unreadable(String)
    /// An input was read but is not valid: a trace line, a token, a configured strap's activity.
    case invalid(String)
    /// Something the session writes failed: the state file, a sink, a recorded trace.
    case unwritable(String)
    /// Another hrbridge holds the strap's or trace's state file, or the control name: stop it first.
    case inUse(String)
    /// Bluetooth, a bus or a library cannot be used; the message says how to fix it.
    case unavailable(String)
    /// Settings that cannot work together, found at start (a listener other machines can reach, without
    /// a bearer token): the message says the fix.
    case misconfigured(String)
    /// A second signal cut the orderly stop short: what was not confirmed ended stays in the state file.
    case hurried(signal: Int32)
    /// A signal stopped the session after an orderly shutdown: activity ended, sinks flushed.
    case stopped(signal: Int32)

    public var message: String {
        switch self {
        case let .unreadable(message), let .invalid(message), let .unwritable(message), let .inUse(message),
             let .unavailable(message), let .misconfigured(message):
            message
        case let .hurried(signal):
            "\(SessionError.signalName(signal)) again: stopped without waiting for the sinks; "
                + "activities not confirmed ended stay in the state file for the next run"
        case let .stopped(signal):
            "stopped by \(SessionError.signalName(signal)): activity ended, sinks flushed"
        }
    }

    /// How a message names a signal: SIGINT and SIGTERM by name, others by number.
    public static func signalName(_ number: Int32) -> String {
        switch number {
        case SIGINT: "SIGINT"
        case SIGTERM: "SIGTERM"
        default: "signal \(number)"
        }
    }
}
