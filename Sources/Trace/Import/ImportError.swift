/// Why a recording could not be imported: the file, where in it, and what is wrong there, printed
/// as `path: location: reason` (`run.fit: byte 1234: …`, `run.tcx: line 12: …`). Every importer
/// that reads a format of its own reports through this one type, so the CLI says them alike (exit 65).
public struct ImportError: Error, Sendable, Hashable, CustomStringConvertible {
    public var path: String
    /// Where in the file, in the format's own terms: `byte 1234` for a binary format, `line 12` for text.
    public var location: String
    public var reason: String

    public init(path: String, location: String, reason: String) {
        self.path = path
        self.location = location
        self.reason = reason
    }

    public var description: String { "\(path): \(location): \(reason)" }
}
