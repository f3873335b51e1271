#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import SessionState

extension CLIError {
    /// A session's failure as the command's: the same message, with the exit status for its cause
    /// (docs/commands.md: the exit code table).
    init(_ error: SessionError) {
        switch error {
        case .unreadable: self = .noInput(error.message)
        case .invalid: self = .dataError(error.message)
        case .unwritable: self = .cannotCreate(error.message)
        case .inUse, .hurried: self = .temporaryFailure(error.message)
        case .unavailable: self = .unavailable(error.message)
        case .misconfigured: self = .usage(error.message, nil)
        case let .stopped(signal): self = .stopped(error.message, signal == SIGINT ? .interrupted : .terminated)
        }
    }

    /// A call into the session from a command: its failure becomes the command's (`init(_:)`).
    @discardableResult
    static func catching<T>(_ call: @autoclosure () throws(SessionError) -> T) throws(CLIError) -> T {
        do {
            return try call()
        } catch {
            throw CLIError(error)
        }
    }
}
