/// What an entity or character reference (`&amp;`, `&#233;`, `&#xE9;`) stands for. XML without a
/// DTD knows only the five predefined entities; any other name is an error, not text to keep.
enum XMLReference {
    /// The longest name between `&` and `;` worth reading (`&#x10FFFF;` has 8): a longer one is an
    /// error, so an `&` that starts no reference cannot swallow the rest of the text.
    static let longestName = 8

    /// The character `name` (what stands between `&` and `;`) refers to; nil when it is none.
    static func character(named name: [UInt8]) -> Unicode.Scalar? {
        switch name {
        case Array("lt".utf8): return "<"
        case Array("gt".utf8): return ">"
        case Array("amp".utf8): return "&"
        case Array("apos".utf8): return "'"
        case Array("quot".utf8): return "\""
        default: break
        }
        guard name.first == UInt8(ascii: "#") else { return nil }
        let hexadecimal = name.count > 1 && name[1] == UInt8(ascii: "x")
        let digits = name.dropFirst(hexadecimal ? 2 : 1)
        let radix: UInt32 = hexadecimal ? 16 : 10
        var code: UInt32 = 0 // at most 7 digits (`longestName`): no overflow
        for byte in digits {
            guard let digit = digitValue(byte), digit < radix else { return nil }
            code = code * radix + digit
        }
        guard !digits.isEmpty, let scalar = Unicode.Scalar(code), isXMLCharacter(scalar) else { return nil }
        return scalar
    }

    private static func digitValue(_ byte: UInt8) -> UInt32? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt32(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt32(byte - UInt8(ascii: "A") + 10)
        default: nil
        }
    }

    /// XML 1.0's Char production: what a reference may produce (no NUL, no other C0 control but tab,
    /// newline and carriage return).
    private static func isXMLCharacter(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x9, 0xA, 0xD, 0x20...0xD7FF, 0xE000...0xFFFD, 0x10000...0x10FFFF: true
        default: false
        }
    }
}
