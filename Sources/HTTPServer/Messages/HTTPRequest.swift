/// One request as the library parsed it: the method, the path (percent-decoded, without the query),
/// the header fields and the whole body (at most `ServerLimits.maximumBodySize` bytes: a larger one
/// is answered 413 by the transport and never reaches a handler).
public struct HTTPRequest: Sendable {
    public var method: String
    public var path: String
    /// In the order they came; names as the client spelled them (`header(_:)` ignores case).
    public var headers: [(name: String, value: String)]
    public var body: [UInt8]

    public init(method: String, path: String, headers: [(name: String, value: String)] = [], body: [UInt8] = []) {
        self.method = method
        self.path = path
        self.headers = headers
        self.body = body
    }

    /// The first field named `name` (ASCII case ignored, as RFC 9110 says names compare).
    public func header(_ name: String) -> String? {
        headers.first { Self.sameName($0.name, name) }?.value
    }

    /// The media type of the body without its parameters, lower-cased (`application/json`), or nil.
    public var mediaType: String? {
        guard let value = header("Content-Type") else { return nil }
        let type = value.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        return String(type.filter { $0 != " " && $0 != "\t" }).lowercased()
    }

    static func sameName(_ first: String, _ second: String) -> Bool {
        first.utf8.count == second.utf8.count && zip(first.utf8, second.utf8).allSatisfy { lowered($0) == lowered($1) }
    }

    private static func lowered(_ byte: UInt8) -> UInt8 {
        (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte + 32 : byte
    }
}
