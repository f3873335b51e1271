/// A failure the user must hear about, with the exit code it maps to (BSD sysexits).
enum CLIError: Error {
    /// Bad flags or arguments: the message, then the command's usage line.
    case usage(String, CommandSpec?)
    /// The input was read but is not valid (e.g. `path:line: reason`).
    case dataError(String)
    /// An input file could not be opened or read.
    case noInput(String)
    /// An output file could not be created or written.
    case cannotCreate(String)
    /// Try again later: another run holds the state file, or a stop was cut short.
    case temporaryFailure(String)
    /// A signal stopped the command after an orderly shutdown; the status is 128 + the signal.
    case stopped(String, ExitCode)
    /// Bluetooth is not usable (no bus, no permission, no bluetoothd, no adapter, no strap):
    /// the message says what and how to fix it.
    case unavailable(String)

    var exitCode: ExitCode {
        switch self {
        case .usage: .usage
        case .dataError: .dataError
        case .noInput: .noInput
        case .cannotCreate: .cannotCreate
        case .temporaryFailure: .temporaryFailure
        case let .stopped(_, code): code
        case .unavailable: .unavailable
        }
    }

    var message: String {
        switch self {
        case let .usage(message, spec):
            guard let spec else { return message }
            return "\(message)\nUsage: \(spec.usageLine)\nTry 'hrbridge \(spec.name) --help'."
        case let .dataError(message), let .noInput(message), let .cannotCreate(message), let .temporaryFailure(message),
             let .stopped(message, _), let .unavailable(message):
            return message
        }
    }
}

/// Exit statuses, from BSD's sysexits.h so that scripts can tell causes apart.
public enum ExitCode: Int32, Sendable {
    case success = 0
    case usage = 64
    case dataError = 65
    case noInput = 66
    case unavailable = 69
    case cannotCreate = 73
    /// EX_TEMPFAIL: another run owns the strap or trace, or a second signal cut the stop short.
    case temporaryFailure = 75
    /// 128 + SIGINT, as a shell reports an interrupted command.
    case interrupted = 130
    /// 128 + SIGTERM: stopped on request (the unit lists it in SuccessExitStatus).
    case terminated = 143
}
