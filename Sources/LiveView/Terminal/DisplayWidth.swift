/// How many terminal columns text takes, and text made safe and short enough for them. A strap's
/// name comes from its advertising packets: anyone in radio range chooses it, so control characters
/// (an escape sequence would reach the terminal) are replaced before anything is measured.
public enum DisplayWidth {
    /// Columns of one character: 0 for combining marks, 2 for East Asian wide and emoji, else 1.
    public static func columns(of character: Character) -> Int {
        guard let scalar = character.unicodeScalars.first else { return 0 }
        let properties = scalar.properties
        switch properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format: return 0
        default: break
        }
        if properties.isEmojiPresentation || isEastAsianWide(scalar.value) { return 2 }
        return 1
    }

    public static func columns(of text: some StringProtocol) -> Int {
        text.reduce(0) { $0 + columns(of: $1) }
    }

    /// `text` with every control character (C0, DEL, C1) as `?`: nothing in it moves the cursor.
    public static func printable(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isControl) else { return text }
        return String(String.UnicodeScalarView(text.unicodeScalars.map { isControl($0) ? "?" : $0 }))
    }

    /// `text` cut to at most `columns`, its last column an ellipsis when anything was cut.
    public static func truncated(_ text: String, to columns: Int) -> String {
        guard columns > 0 else { return "" }
        guard self.columns(of: text) > columns else { return text }
        var kept = ""
        var used = 0
        for character in text {
            let width = self.columns(of: character)
            guard used + width <= columns - 1 else { break }
            kept.append(character)
            used += width
        }
        return kept + ellipsis
    }

    /// `text` cut or padded with spaces to exactly `columns`.
    public static func fitted(_ text: String, to columns: Int) -> String {
        let cut = truncated(text, to: columns)
        return cut + String(repeating: " ", count: max(0, columns - self.columns(of: cut)))
    }

    static let ellipsis = "…"

    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }

    /// Unicode's East Asian Width W and F blocks (UAX #11), by their main ranges: Hangul Jamo, CJK
    /// and Yi, Hangul syllables, compatibility ideographs, vertical and fullwidth forms, the
    /// supplementary ideographic planes.
    private static func isEastAsianWide(_ value: UInt32) -> Bool {
        switch value {
        case 0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF,
             0xA000...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60,
             0xFFE0...0xFFE6, 0x20000...0x3FFFD: true
        default: false
        }
    }
}
