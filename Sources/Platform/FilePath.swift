#if canImport(Glibc)
import Glibc
#endif

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

extension FilePath {
    /// The size of the file at `path` in bytes; 0 when there is none.
    public static func size(of path: String) -> Int {
        var status = stat()
        return stat(path, &status) == 0 ? Int(status.st_size) : 0
    }

    /// Whether this process may create files in `directory` (it exists, and write and search are allowed).
    public static func isWritableDirectory(_ directory: String) -> Bool {
        access(directory, W_OK | X_OK) == 0
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
