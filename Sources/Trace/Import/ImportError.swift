/// Why a recording cannot be imported, where in the file: `path: line 12: reason` for a text
/// format, `path: byte 1234: reason` for a binary one. Shared by every importer so the command
/// reports them all the same way (exit 65).
public struct ImportError: Error, Sendable, Hashable, CustomStringConvertible {
    public var path: String
    /// Where in the file, in the file's own terms: `line 12`, `byte 1234`.
    public var location: String
    public var reason: String

    public init(path: String, location: String, reason: String) {
        self.path = path
        self.location = location
        self.reason = reason
    }

    public var description: String { "\(path): \(location): \(reason)" }
}
