import Sensors

/// Values as XML Schema writes them, which is how TCX and GPX type theirs.
enum XSDValue {
    /// An xsd:dateTime (`2026-03-08T01:59:59-08:00`, `…Z`, with a fraction), exact to the
    /// microsecond. A time without a zone is read as UTC: GPX 1.1 says its times are UTC, and
    /// Garmin writes TCX times in UTC.
    static func dateTime(_ text: String) -> Timestamp? {
        let trimmed = text.trimmingXMLWhitespace
        return UTCTimestampText.parse(trimmed) ?? UTCTimestampText.parse(trimmed + "Z")
    }

    /// An xsd:double or xsd:decimal in plain decimal notation (`4630.37792969`, `-1.5e2`), finite.
    /// Swift's own parser alone would also take hexadecimal (`0x1p3`), `nan` and `inf`.
    static func number(_ text: String) -> Double? {
        let trimmed = text.trimmingXMLWhitespace
        guard trimmed.utf8.allSatisfy({ $0.isDigit || "+-.eE".utf8.contains($0) }), let value = Double(trimmed), value.isFinite
        else { return nil }
        return value
    }
}

extension String {
    /// Without the XML whitespace around it: it is not part of a value (xsd's whiteSpace="collapse").
    var trimmingXMLWhitespace: String {
        let bytes = Array(utf8)
        guard let first = bytes.firstIndex(where: { !$0.isXMLWhitespace }), let last = bytes.lastIndex(where: { !$0.isXMLWhitespace })
        else { return "" }
        return String(decoding: bytes[first...last], as: UTF8.self)
    }
}
