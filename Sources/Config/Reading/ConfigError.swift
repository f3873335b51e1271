/// Why a configuration could not be used. Each message starts with the file, so it reads on its own:
/// `config.json: straps[1].sinks[0].url: expected an https or http URL, got "ftp://x"`.
public enum ConfigError: Error, Sendable, Equatable, CustomStringConvertible {
    /// No --config was given and none of the standard places holds a file.
    case notFound(searched: [String])
    /// The file exists (or was named) but cannot be read.
    case unreadable(file: String, reason: String)
    /// The file is not JSON.
    case syntax(file: String, JSONSyntaxError)
    /// The file is JSON but not a valid configuration; every issue found, section by section.
    case invalid(file: String, [ConfigIssue])

    public var description: String {
        switch self {
        case let .notFound(searched):
            "no configuration file: give --config PATH or create one of \(searched.joined(separator: ", "))"
        case let .unreadable(file, reason):
            "\(file): \(reason)"
        case let .syntax(file, error):
            "\(file):\(error.line):\(error.column): \(error.reason)"
        case let .invalid(file, issues):
            issues.map { "\(file): \($0)" }.joined(separator: "\n")
        }
    }
}
