/// Why a capture cannot be imported: where (the byte offset in the file, so `cmp` or a hex
/// viewer can show it) and what. Only defects that make the rest of the capture untrustworthy
/// end up here; the ones a capture can live with are counted in `BtsnoopSkips`.
public struct BtsnoopError: Error, Sendable, Hashable, CustomStringConvertible {
    public let offset: Int
    public let what: String

    public init(offset: Int, _ what: String) {
        self.offset = offset
        self.what = what
    }

    /// `byte OFFSET: what`; the caller puts the path in front.
    public var description: String { "byte \(offset): \(what)" }
}
