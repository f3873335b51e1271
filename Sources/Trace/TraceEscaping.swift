import Sensors

/// Percent-escaping for free text in a trace (names, notes, disconnect reasons), so every event
/// stays on one line and header fields stay space-separated.
enum TraceEscaping {
    static func escape(_ text: String, escapingSpaces: Bool) -> String {
        var escaped = ""
        for scalar in text.unicodeScalars {
            let value = scalar.value
            let mustEscape = value == 0x25 || value < 0x20 || value == 0x7F
                || (escapingSpaces && (value == 0x20 || value == 0x3D))
            if mustEscape {
                escaped += "%" + Hex.encode([UInt8(value)]).uppercased()
            } else {
                escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped
    }

    /// Undoes `escape`; nil when a `%` is not followed by two hex digits. Works on bytes because a
    /// `%` followed by a combining mark is one Character, which a search for "%" would miss.
    static func unescape<Text: Collection<UInt8>>(_ text: Text) -> String? {
        guard text.contains(UInt8(ascii: "%")) else { return String(decoding: text, as: UTF8.self) }
        var bytes: [UInt8] = []
        var iterator = text.makeIterator()
        while let byte = iterator.next() {
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            guard let high = iterator.next(), let low = iterator.next(),
                  Hex.decodeStrict([high, low], into: &bytes)
            else { return nil }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
