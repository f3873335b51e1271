/// The listener's bearer token (RFC 6750), compared in constant time: how long a comparison takes
/// says nothing about how much of a guess was right. Its length may show; its bytes do not.
public struct BearerToken: Sendable {
    private let expected: [UInt8]

    /// Refuses an empty token, or one with whitespace or control characters (it would not survive
    /// an `Authorization` header, so no client could send it).
    public init?(_ token: String) {
        let bytes = Array(token.utf8)
        guard !bytes.isEmpty, bytes.allSatisfy({ $0 > 0x20 && $0 != 0x7F }) else { return nil }
        expected = bytes
    }

    /// Whether an `Authorization` field value carries this token (`Bearer` in any case, one space).
    public func admits(_ authorization: String?) -> Bool {
        guard let authorization else { return false }
        let field = Array(authorization.utf8)
        let scheme = Array("bearer ".utf8)
        guard field.count > scheme.count,
              zip(field, scheme).allSatisfy({ ($0 | 0x20) == $1 }) else { return false }
        return Self.constantTimeEqual(Array(field[scheme.count...]), expected)
    }

    /// Every byte of `expected` is looked at whatever `given` holds.
    static func constantTimeEqual(_ given: [UInt8], _ expected: [UInt8]) -> Bool {
        var difference = given.count ^ expected.count
        for index in expected.indices {
            difference |= Int(expected[index] ^ (index < given.count ? given[index] : 0))
        }
        return difference == 0
    }
}
