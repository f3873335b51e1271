import Sensors

/// Appends compact JSON straight into a byte buffer. Used on the per-sample path, where
/// Foundation's JSONEncoder would cost more than parsing the sample did. A measurement writes its own
/// fields into it (`MeasurementFieldWriter`).
struct JSONLine: MeasurementFieldWriter {
    private(set) var bytes: [UInt8]
    private var needsComma = false

    init() {
        bytes = [UInt8(ascii: "{")]
        bytes.reserveCapacity(128)
    }

    mutating func key(_ name: StaticString) {
        if needsComma { bytes.append(UInt8(ascii: ",")) }
        needsComma = true
        bytes.append(UInt8(ascii: "\""))
        name.withUTF8Buffer { bytes.append(contentsOf: $0) }
        bytes.append(contentsOf: [UInt8(ascii: "\""), UInt8(ascii: ":")])
    }

    mutating func integer<Integer: BinaryInteger>(_ name: StaticString, _ value: Integer) {
        key(name)
        Self.appendDecimal(Int64(value), to: &bytes)
    }

    mutating func optionalInteger<Integer: BinaryInteger>(_ name: StaticString, _ value: Integer?) {
        key(name)
        if let value { Self.appendDecimal(Int64(value), to: &bytes) } else { bytes.append(contentsOf: Self.null) }
    }

    mutating func integers<Integer: BinaryInteger>(_ name: StaticString, _ values: [Integer]) {
        key(name)
        bytes.append(UInt8(ascii: "["))
        for (index, value) in values.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            Self.appendDecimal(Int64(value), to: &bytes)
        }
        bytes.append(UInt8(ascii: "]"))
    }

    /// Shortest round-trip digits (`3.5`, `1234.5`); whole values without `.0` (`3`), as JSONEncoder and
    /// the ActivityKit encoding print them. JSON has no NaN or infinity: those print null.
    mutating func double(_ name: StaticString, _ value: Double) {
        key(name)
        Self.appendNumber(value, to: &bytes)
    }

    mutating func optionalDouble(_ name: StaticString, _ value: Double?) {
        key(name)
        if let value { Self.appendNumber(value, to: &bytes) } else { bytes.append(contentsOf: Self.null) }
    }

    mutating func bool(_ name: StaticString, _ value: Bool) {
        key(name)
        bytes.append(contentsOf: value ? Self.true : Self.false)
    }

    mutating func string(_ name: StaticString, _ value: String) {
        key(name)
        Self.appendQuoted(value, to: &bytes)
    }

    /// Appends bytes the caller has already made valid JSON.
    mutating func raw(_ byte: UInt8) { bytes.append(byte) }
    mutating func raw(_ body: (inout [UInt8]) -> Void) { body(&bytes) }

    /// Closes the object and ends the line.
    mutating func finish() -> [UInt8] {
        bytes.append(contentsOf: [UInt8(ascii: "}"), UInt8(ascii: "\n")])
        return bytes
    }

    private static let null = Array("null".utf8)
    private static let `true` = Array("true".utf8)
    private static let `false` = Array("false".utf8)

    private static func appendNumber(_ value: Double, to bytes: inout [UInt8]) {
        guard value.isFinite else { return bytes.append(contentsOf: null) }
        var text = value.description
        if text.hasSuffix(".0") { text.removeLast(2) }
        bytes.append(contentsOf: text.utf8)
    }

    static func appendDecimal(_ value: Int64, to bytes: inout [UInt8]) {
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        var digits: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                     UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) =
            (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var count = 0
        withUnsafeMutableBytes(of: &digits) { storage in
            repeat {
                storage[count] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
                count += 1
            } while magnitude > 0
            for index in stride(from: count - 1, through: 0, by: -1) { bytes.append(storage[index]) }
        }
    }

    /// JSON string escaping per RFC 8259: quote, backslash and control characters.
    static func appendQuoted(_ value: String, to bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "\""))
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "\""): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
            case UInt8(ascii: "\\"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
            case UInt8(ascii: "\n"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
            case UInt8(ascii: "\t"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
            case 0..<0x20:
                bytes.append(contentsOf: Array("\\u00\(Hex.encode([byte]))".utf8))
            default: bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }
}
