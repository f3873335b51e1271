import Platform

/// Writes a `JSONValue` as indented JSON in member order, so `config check` prints the effective
/// configuration in the order a person reads (and wrote) it. `package`: the JSON fuzz target checks
/// that what it writes parses back to the same value.
package enum JSONWriter {
    /// Longest line an object of scalars may take before it is spread over several lines.
    static let oneLineWidth = 100

    package static func pretty(_ value: JSONValue) -> String {
        var text = ""
        write(value, indent: "", to: &text)
        return text + "\n"
    }

    private static func write(_ value: JSONValue, indent: String, to text: inout String) {
        let inner = indent + "  "
        switch value {
        case .null: text += "null"
        case let .bool(flag): text += flag ? "true" : "false"
        case let .number(number): text += number
        case let .string(string): text += quoted(string)
        case let .array(elements):
            guard !elements.isEmpty else { text += "[]"; return }
            // Short lists of scalars (zone boundaries) stay on one line.
            if elements.count <= 8, elements.allSatisfy(\.isScalar) {
                text += "[" + elements.map { element in
                    var item = ""
                    write(element, indent: inner, to: &item)
                    return item
                }.joined(separator: ", ") + "]"
                return
            }
            text += "[\n"
            for (position, element) in elements.enumerated() {
                text += inner
                write(element, indent: inner, to: &text)
                text += position == elements.count - 1 ? "\n" : ",\n"
            }
            text += indent + "]"
        case let .object(members):
            guard !members.isEmpty else { text += "{}"; return }
            // A small object of scalars (a sink) reads best on one line.
            if members.allSatisfy(\.value.isScalar) {
                let line = "{" + members.map { member in
                    var item = quoted(member.key) + ": "
                    write(member.value, indent: inner, to: &item)
                    return item
                }.joined(separator: ", ") + "}"
                if indent.count + line.count <= oneLineWidth {
                    text += line
                    return
                }
            }
            text += "{\n"
            for (position, member) in members.enumerated() {
                text += inner + quoted(member.key) + ": "
                write(member.value, indent: inner, to: &text)
                text += position == members.count - 1 ? "\n" : ",\n"
            }
            text += indent + "}"
        }
    }

    /// A JSON string literal (RFC 8259 escaping).
    static func quoted(_ string: String) -> String { string.jsonQuoted }
}

extension JSONValue {
    var isScalar: Bool {
        switch self {
        case .array, .object: false
        default: true
        }
    }
}
