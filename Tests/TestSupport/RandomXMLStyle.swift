/// The ways a file may spell the same content, chosen at random for the test writers: whitespace
/// or none between elements, comments, values with whitespace around them, in CDATA, split by a
/// comment or starting with a character reference. An importer must read them all alike.
public struct RandomXMLStyle {
    public var random: SplitMix64

    public init(seed: UInt64) {
        random = SplitMix64(seed: seed)
    }

    /// What stands between two elements.
    public mutating func gap() -> String {
        switch random.below(6) {
        case 0: ""
        case 1: "<!-- \(random.below(100)) -->"
        case 2: "\n"
        default: "\n" + String(repeating: " ", count: Int(random.below(8)))
        }
    }

    /// `text` as an element's content.
    public mutating func value(_ text: String) -> String {
        let first = text.unicodeScalars.first!.value, rest = Self.escaped(String(text.dropFirst()))
        switch random.below(8) {
        case 0: return " \(Self.escaped(text))\n "
        case 1: return "<![CDATA[\(text)]]>"
        case 2 where text.count > 1: return "\(Self.escaped(String(text.prefix(1))))<!-- split -->\(rest)"
        case 3: return "&#\(first);\(rest)"
        case 4: return "&#x\(String(first, radix: 16));\(rest)"
        default: return Self.escaped(text)
        }
    }

    /// `&`, `<` and `>` as entities, the way a writer must put them in text.
    public static func escaped(_ text: String) -> String {
        text.replacingAll("&", "&amp;").replacingAll("<", "&lt;").replacingAll(">", "&gt;")
    }

    /// `<name>value</name>`.
    public mutating func element(_ name: String, _ text: String) -> String {
        "<\(name)>\(value(text))</\(name)>"
    }

    public mutating func pick<Element>(_ options: [Element]) -> Element {
        options[Int(random.below(UInt64(options.count)))]
    }

    /// `xmlns="uri"` for no prefix, `xmlns:p="uri"` for `p:`.
    public static func declaration(_ prefix: String, _ namespace: String) -> String {
        prefix.isEmpty ? "xmlns=\"\(namespace)\"" : "xmlns:\(prefix.dropLast())=\"\(namespace)\""
    }
}

private extension String {
    func replacingAll(_ target: Character, _ replacement: String) -> String {
        var result = ""
        for character in self { if character == target { result += replacement } else { result.append(character) } }
        return result
    }
}
