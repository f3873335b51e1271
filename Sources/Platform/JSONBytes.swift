/// Compact JSON written straight into a byte buffer, byte for byte what Foundation's `JSONEncoder`
/// (default strategies, swift-foundation's writer) prints for the same values: strings escape `"`,
/// `\`, `/` and control characters (`\b \t \n \f \r`, the rest as `\u00xx`), everything else as raw
/// UTF-8; numbers print like `Double.description` without a trailing `.0`. Every update goes through
/// it, far cheaper than through JSONEncoder (docs/performance.md).
/// `JSONBytesTests` (tables) and `EncodingDriftTests` (seeded random updates) pin it to JSONEncoder.
public struct JSONBytes: Sendable {
    public private(set) var bytes: [UInt8] = []
    /// Inside an object, whether the next key needs a comma before it.
    private var needsComma = false

    public init(capacity: Int = 256) {
        bytes.reserveCapacity(capacity)
    }

    public var count: Int { bytes.count }

    /// One value on its own (a member of `object(sortingKeys:)`), written by `body`.
    public static func value(capacity: Int = 64, _ body: (inout JSONBytes) throws -> Void) rethrows -> [UInt8] {
        var json = JSONBytes(capacity: capacity)
        try body(&json)
        return json.bytes
    }

    // MARK: - Structure

    public mutating func beginObject() {
        bytes.append(UInt8(ascii: "{"))
        needsComma = false
    }

    /// `"name":`, after a comma unless it is the object's first key. Names are ours: no escaping needed.
    public mutating func key(_ name: StaticString) {
        if needsComma { bytes.append(UInt8(ascii: ",")) }
        needsComma = true
        bytes.append(UInt8(ascii: "\""))
        name.withUTF8Buffer { bytes.append(contentsOf: $0) }
        bytes.append(UInt8(ascii: "\""))
        bytes.append(UInt8(ascii: ":"))
    }

    /// `"name":` for a key known only at run time (a configured one), escaped as any string.
    public mutating func key(_ name: String, escapingSlash: Bool = true) {
        if needsComma { bytes.append(UInt8(ascii: ",")) }
        needsComma = true
        string(name, escapingSlash: escapingSlash)
        bytes.append(UInt8(ascii: ":"))
    }

    /// An object whose keys are known only at run time, in JSONEncoder's `.sortedKeys` order (the
    /// keys' `<`); each value is already valid JSON. A key given twice keeps its last value, as
    /// an encoder's container does.
    public mutating func object(sortingKeys members: [(key: String, value: [UInt8])], escapingSlash: Bool = true) {
        var byKey: [String: [UInt8]] = [:]
        for (key, value) in members { byKey[key] = value }
        beginObject()
        for key in byKey.keys.sorted() {
            self.key(key, escapingSlash: escapingSlash)
            bytes.append(contentsOf: byKey[key]!)
        }
        endObject()
    }

    /// `[…]`: each element written by `element`, commas between.
    public mutating func array<Elements: Sequence, Failure: Error>(
        _ elements: Elements, _ element: (inout JSONBytes, Elements.Element) throws(Failure) -> Void
    ) throws(Failure) {
        bytes.append(UInt8(ascii: "["))
        var first = true
        for value in elements {
            if !first { bytes.append(UInt8(ascii: ",")) }
            first = false
            try element(&self, value)
        }
        bytes.append(UInt8(ascii: "]"))
    }

    public mutating func endObject() {
        bytes.append(UInt8(ascii: "}"))
        needsComma = true // the enclosing object (if any) goes on after this value
    }

    /// Bytes the caller has already made valid JSON (a separator, a newline).
    public mutating func raw(_ byte: UInt8) {
        bytes.append(byte)
    }

    /// Bytes the caller writes in place, already valid JSON (a timestamp's digits).
    public mutating func raw(_ body: (inout [UInt8]) -> Void) {
        body(&bytes)
    }

    // MARK: - Values

    /// A JSON string literal with JSONEncoder's escaping; `escapingSlash` false leaves `/` as it is
    /// (RFC 8259 allows both), for text a person reads: paths, names, our own lines.
    public mutating func string(_ text: String, escapingSlash: Bool = true) {
        var text = text
        let slash = escapingSlash ? UInt8(ascii: "/") : UInt8(ascii: "\"")
        bytes.append(UInt8(ascii: "\""))
        text.withUTF8 { utf8 in
            var runStart = 0
            for index in utf8.indices {
                let byte = utf8[index]
                guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte == slash
                else { continue }
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<index]))
                appendEscape(for: byte)
                runStart = index + 1
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart...]))
        }
        bytes.append(UInt8(ascii: "\""))
    }

    private mutating func appendEscape(for byte: UInt8) {
        bytes.append(UInt8(ascii: "\\"))
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): bytes.append(byte)
        case 0x08: bytes.append(UInt8(ascii: "b"))
        case 0x09: bytes.append(UInt8(ascii: "t"))
        case 0x0A: bytes.append(UInt8(ascii: "n"))
        case 0x0C: bytes.append(UInt8(ascii: "f"))
        case 0x0D: bytes.append(UInt8(ascii: "r"))
        default:
            bytes.append(contentsOf: [UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"),
                                      Self.lowerHexDigits[Int(byte >> 4)], Self.lowerHexDigits[Int(byte & 0x0F)]])
        }
    }

    private static let lowerHexDigits = Array("0123456789abcdef".utf8)

    public mutating func bool(_ value: Bool) {
        bytes.append(contentsOf: value ? Self.trueBytes : Self.falseBytes)
    }

    public mutating func null() {
        bytes.append(contentsOf: Self.nullBytes)
    }

    private static let trueBytes = Array("true".utf8)
    private static let falseBytes = Array("false".utf8)
    private static let nullBytes = Array("null".utf8)

    /// A whole number in decimal, as JSONEncoder prints an `Int`.
    public mutating func integer(_ value: Int) {
        Self.appendDecimal(Int64(value), to: &bytes)
    }

    /// Any fixed-width integer (a 64-bit one prints whole, unsigned ones up to Int64.max).
    public mutating func integer<Integer: BinaryInteger>(_ value: Integer) {
        Self.appendDecimal(Int64(value), to: &bytes)
    }

    /// A `Double` as JSONEncoder prints it: its `description` without a trailing `.0`. JSONEncoder
    /// refuses NaN and infinities (no JSON number says them), and so does this.
    public mutating func number(_ value: Double) throws(JSONNumberError) {
        guard value.isFinite else { throw JSONNumberError(value: value) }
        // Whole numbers below 2^53 (every date and distance in practice) print as integers: the
        // same digits `description` gives (it switches to exponents only from 1e16), without a String.
        if value.rounded(.towardZero) == value, value.magnitude < Self.exactIntegerLimit {
            if value == 0, value.sign == .minus { bytes.append(UInt8(ascii: "-")) }
            Self.appendDecimal(Int64(value), to: &bytes)
            return
        }
        var text = value.description
        if text.hasSuffix(".0") { text.removeLast(2) }
        bytes.append(contentsOf: text.utf8)
    }

    /// 2^53: every whole Double below it converts to Int64 exactly.
    private static let exactIntegerLimit: Double = 9_007_199_254_740_992

    /// Decimal digits of `value`, most significant first, no allocation.
    static func appendDecimal(_ value: Int64, to bytes: inout [UInt8]) {
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        // UInt64.max has 20 digits.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            var start = digits.count
            repeat {
                start -= 1
                digits[start] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: magnitude % 10)
                magnitude /= 10
            } while magnitude > 0
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: digits[start...]))
        }
    }
}

extension String {
    /// The text as a JSON string literal, the way messages and `config check` quote a value the
    /// user wrote: quotes and control characters visible (`\n`, `\u0001`), `/` and everything else
    /// as is. The one escaping there is (`JSONBytes.string`).
    public var jsonQuoted: String {
        var json = JSONBytes(capacity: utf8.count + 2)
        json.string(self, escapingSlash: false)
        return String(decoding: json.bytes, as: UTF8.self)
    }
}

/// A Double no JSON number can say (NaN, an infinity).
public struct JSONNumberError: Error, Sendable, Hashable, CustomStringConvertible {
    public let value: Double

    public var description: String { "\(value) cannot be encoded as a JSON number" }
}
