import FoundationEssentials
import Platform

/// Where a lifecycle server's bearer token comes from: a file (re-read when the server answers 401,
/// so a rotated token needs no restart) or an environment variable. Never argv, never logged.
public enum BearerTokenSource: Sendable, Equatable {
    case file(String)
    case environment(String)

    /// The token, trimmed of surrounding whitespace (files usually end with a newline).
    public func read() throws(SinkError) -> String {
        switch self {
        case let .file(path):
            guard let data = FileManager.default.contents(atPath: path) else {
                throw SinkError(sink: "token", message: "\(path): cannot read the bearer token file")
            }
            let token = String(decoding: data, as: UTF8.self).trimmed
            guard !token.isEmpty, !token.contains(where: \.isNewline) else {
                throw SinkError(sink: "token", message: "\(path): expected one line holding the bearer token")
            }
            return token
        case let .environment(name):
            guard let value = ProcessInfo.processInfo.environment[name]?.trimmed,
                  !value.isEmpty
            else {
                throw SinkError(sink: "token", message: "environment variable \(name) is not set or empty")
            }
            return value
        }
    }
}
