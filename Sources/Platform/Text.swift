extension StringProtocol {
    /// The text without the whitespace and line breaks around it (Unicode's White_Space property, as
    /// Foundation's `.whitespacesAndNewlines`), without linking Foundation's ICU-backed string API.
    public var trimmed: String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }) else { return "" }
        let last = scalars.lastIndex(where: { !$0.properties.isWhitespace })!
        return String(String.UnicodeScalarView(scalars[first...last]))
    }

    /// RFC 3986 percent-encoding: the unreserved characters (A–Z a–z 0–9 - . _ ~) as they are, every
    /// other byte of the UTF-8 as %XX. Safe in a URL path segment and in a form value.
    public var percentEncoded: String {
        var encoded = ""
        for byte in utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
                encoded.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let hex = Array("0123456789ABCDEF".unicodeScalars)
                encoded.unicodeScalars.append("%")
                encoded.unicodeScalars.append(hex[Int(byte >> 4)])
                encoded.unicodeScalars.append(hex[Int(byte & 0x0F)])
            }
        }
        return encoded
    }
}

extension Unicode.Scalar {
    /// A–Z, a–z or 0–9: what ids, keys and file names on the wire may hold. By scalar, because
    /// Character.isLetter and isNumber also take accented, fullwidth and other scripts' forms.
    public var isASCIILetterOrDigit: Bool {
        ("a"..."z").contains(self) || ("A"..."Z").contains(self) || ("0"..."9").contains(self)
    }
}
