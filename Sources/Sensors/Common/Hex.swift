/// Hex text as people copy it from btmon, nRF Connect or Wireshark.
public enum Hex {
    public enum DecodingError: Error, Sendable, Hashable, CustomStringConvertible {
        case invalidCharacter(Character, offset: Int)
        case oddDigitCount(Int)

        public var description: String {
            switch self {
            case let .invalidCharacter(character, offset):
                return "'\(character)' at column \(offset + 1) is not a hex digit"
            case let .oddDigitCount(count):
                return "odd number of hex digits (\(count)): every byte needs two"
            }
        }
    }

    /// Decodes hex digits, tolerating spaces, tabs, colons, dashes and `0x` prefixes between bytes
    /// (`06 48`, `06:48`, `0x06 0x48`, `0x0648`).
    public static func decodeLenient(_ text: String) throws(DecodingError) -> [UInt8] {
        var digits: [UInt8] = []
        let scalars = Array(text.utf8)
        var index = 0
        while index < scalars.count {
            let byte = scalars[index]
            if byte == UInt8(ascii: "0"), index + 1 < scalars.count,
               scalars[index + 1] | 0x20 == UInt8(ascii: "x"),
               index == 0 || isSeparator(scalars[index - 1]) {
                index += 2
                continue
            }
            if isSeparator(byte) {
                index += 1
                continue
            }
            guard let nibble = nibble(byte) else {
                let character = Character(Unicode.Scalar(byte))
                throw .invalidCharacter(character, offset: index)
            }
            digits.append(nibble)
            index += 1
        }
        guard digits.count % 2 == 0 else { throw .oddDigitCount(digits.count) }
        return stride(from: 0, to: digits.count, by: 2).map { digits[$0] << 4 | digits[$0 + 1] }
    }

    /// Decodes a compact run of hex digits (the trace format's form) without allocating per byte.
    /// Answers nil for an odd length or a non-hex character.
    @inlinable
    public static func decodeStrict<Bytes: Collection>(_ ascii: Bytes, into output: inout [UInt8]) -> Bool
    where Bytes.Element == UInt8 {
        guard ascii.count % 2 == 0 else { return false }
        var high: UInt8?
        for byte in ascii {
            guard let value = nibble(byte) else { return false }
            if let pending = high {
                output.append(pending << 4 | value)
                high = nil
            } else {
                high = value
            }
        }
        return true
    }

    /// `decodeStrict(_:into:)` for a caller that decodes line after line into one array: `output` is
    /// replaced by the bytes, in place (`overwrite(count:_:)`). On false, `output` is unspecified.
    @inlinable
    public static func decodeStrict(_ ascii: UnsafeBufferPointer<UInt8>, replacing output: inout [UInt8]) -> Bool {
        guard ascii.count % 2 == 0 else { return false }
        let count = ascii.count / 2
        return output.overwrite(count: count) { bytes in
            for index in 0..<count {
                guard let high = nibble(ascii[2 &* index]), let low = nibble(ascii[2 &* index &+ 1]) else { return false }
                bytes[index] = high << 4 | low
            }
            return true
        }
    }

    /// Lower-case hex, two digits a byte, no separators.
    public static func encode<Bytes: Sequence>(_ bytes: Bytes) -> String where Bytes.Element == UInt8 {
        var text = ""
        for byte in bytes {
            text.unicodeScalars.append(digitScalars[Int(byte >> 4)])
            text.unicodeScalars.append(digitScalars[Int(byte & 0x0F)])
        }
        return text
    }

    private static let digitScalars: [Unicode.Scalar] = Array("0123456789abcdef".unicodeScalars)

    @inlinable @inline(__always)
    static func nibble(_ ascii: UInt8) -> UInt8? {
        switch ascii {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return ascii &- UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return ascii &- UInt8(ascii: "a") &+ 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return ascii &- UInt8(ascii: "A") &+ 10
        default: return nil
        }
    }

    private static func isSeparator(_ ascii: UInt8) -> Bool {
        ascii == UInt8(ascii: " ") || ascii == UInt8(ascii: "\t") || ascii == UInt8(ascii: ":")
            || ascii == UInt8(ascii: "-") || ascii == UInt8(ascii: "\r")
    }
}
