#if canImport(Glibc)
import Glibc
#endif

extension StringProtocol {
    /// The text without the whitespace and line breaks around it (Unicode's White_Space property, as
    /// Foundation's `.whitespacesAndNewlines`), without linking Foundation's ICU-backed string API.
    public var trimmed: String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }) else { return "" }
        let last = scalars.lastIndex(where: { !$0.properties.isWhitespace })!
        return String(String.UnicodeScalarView(scalars[first...last]))
    }

    /// RFC 3986 percent-encoding: the unreserved characters (A–Z a–z 0–9 - . _ ~) as they are, every
    /// other byte of the UTF-8 as %XX. Safe in a URL path segment and in a form value.
    public var percentEncoded: String {
        var encoded = ""
        for byte in utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
                encoded.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let hex = Array("0123456789ABCDEF".unicodeScalars)
                encoded.unicodeScalars.append("%")
                encoded.unicodeScalars.append(hex[Int(byte >> 4)])
                encoded.unicodeScalars.append(hex[Int(byte & 0x0F)])
            }
        }
        return encoded
    }
}

/// File paths as plain strings, joined and split the way NSString's path methods do for the
/// absolute and relative paths hrbridge builds.
public enum FilePath {
    /// `directory/name`, with one slash between them.
    public static func join(_ directory: String, _ name: String) -> String {
        directory.isEmpty ? name : directory.hasSuffix("/") ? directory + name : directory + "/" + name
    }

    /// The directory holding `path` (`/a/b` → `/a`, `/a` → `/`, `b` → `.`).
    public static func parent(of path: String) -> String {
        let trimmed = withoutTrailingSlashes(path)
        guard let slash = trimmed.lastIndex(of: "/") else { return "." }
        return slash == trimmed.startIndex ? "/" : String(trimmed[..<slash])
    }

    /// The last component (`/a/b.trace` → `b.trace`).
    public static func lastComponent(of path: String) -> String {
        let trimmed = withoutTrailingSlashes(path)
        return trimmed.lastIndex(of: "/").map { String(trimmed[trimmed.index(after: $0)...]) } ?? String(trimmed)
    }

    /// `path` without trailing slashes, but "/" stays. On the UTF-8 view: `Substring.count` counted
    /// characters (grapheme breaking) from the start on every step.
    private static func withoutTrailingSlashes(_ path: String) -> Substring {
        var end = path.utf8.endIndex
        while path.utf8.distance(from: path.utf8.startIndex, to: end) > 1, path.utf8[path.utf8.index(before: end)] == UInt8(ascii: "/") {
            end = path.utf8.index(before: end)
        }
        return path[..<end]
    }
}

extension FilePath {
    /// `mkdir -p`: `path` and every missing directory above it (0755); the error names the one that
    /// could not be made and why, as strerror says it.
    public static func createDirectories(_ path: String) throws(FileSystemError) {
        var made = ""
        for component in path.split(separator: "/", omittingEmptySubsequences: true) {
            made += (made.isEmpty && !path.hasPrefix("/") ? "" : "/") + component
            if mkdir(made, 0o755) != 0, errno != EEXIST { throw FileSystemError(path: made, code: errno) }
        }
    }
}

/// A system call on a path failed: the path and strerror's words for `code`.
public struct FileSystemError: Error, Sendable, CustomStringConvertible {
    public let path: String
    public let code: Int32

    public init(path: String, code: Int32) {
        self.path = path
        self.code = code
    }

    public var reason: String { String(cString: strerror(code)) }
    public var description: String { "\(path): \(reason)" }
}

extension Unicode.Scalar {
    /// A–Z, a–z or 0–9: what ids, keys and file names on the wire may hold. By scalar, because
    /// Character.isLetter and isNumber also take accented, fullwidth and other scripts' forms.
    public var isASCIILetterOrDigit: Bool {
        ("a"..."z").contains(self) || ("A"..."Z").contains(self) || ("0"..."9").contains(self)
    }
}
