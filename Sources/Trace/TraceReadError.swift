#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Why a trace could not be read. `description` is what a user sees: `path:line: reason`.
public enum TraceReadError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The file could not be opened or read (sysexits EX_NOINPUT territory).
    case unreadable(path: String, reason: String)
    /// The file was read but a line is not valid (EX_DATAERR territory).
    case malformed(path: String, line: Int, reason: String)

    public var description: String {
        switch self {
        case let .unreadable(path, reason): return "\(path): \(reason)"
        case let .malformed(path, line, reason): return "\(path):\(line): \(reason)"
        }
    }

    static func unreadable(path: String, errno code: Int32) -> TraceReadError {
        .unreadable(path: path, reason: String(cString: strerror(code)))
    }
}
