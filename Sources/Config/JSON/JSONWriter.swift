import Platform

/// Writes a `JSONValue` as indented JSON in member order, so `config check` prints the effective
/// configuration in the order a person reads (and wrote) it: the layout is this file's, every
/// token is Platform's `JSONBytes` (strings escaped as `jsonQuoted` says them). `package`: the JSON
/// fuzz target checks that what it writes parses back to the same value.
package enum JSONWriter {
    /// Longest line an object of scalars may take before it is spread over several lines.
    static let oneLineWidth = 100

    package static func pretty(_ value: JSONValue) -> String {
        var json = JSONBytes(capacity: 1024)
        write(value, indent: 0, to: &json)
        json.raw(newline)
        return String(decoding: json.bytes, as: UTF8.self)
    }

    private static func write(_ value: JSONValue, indent: Int, to json: inout JSONBytes) {
        let inner = indent + 2
        switch value {
        case .null: json.null()
        case let .bool(flag): json.bool(flag)
        case let .number(number): json.raw { $0.append(contentsOf: number.utf8) }
        case let .string(string): json.string(string, escapingSlash: false)
        case let .array(elements):
            guard !elements.isEmpty else { raw("[]", to: &json); return }
            // Short lists of scalars (zone boundaries) stay on one line.
            if elements.count <= 8, elements.allSatisfy(\.isScalar) {
                json.raw(UInt8(ascii: "["))
                for (position, element) in elements.enumerated() {
                    if position > 0 { raw(", ", to: &json) }
                    write(element, indent: inner, to: &json)
                }
                json.raw(UInt8(ascii: "]"))
                return
            }
            raw("[\n", to: &json)
            for (position, element) in elements.enumerated() {
                spaces(inner, to: &json)
                write(element, indent: inner, to: &json)
                raw(position == elements.count - 1 ? "\n" : ",\n", to: &json)
            }
            spaces(indent, to: &json)
            json.raw(UInt8(ascii: "]"))
        case let .object(members):
            guard !members.isEmpty else { raw("{}", to: &json); return }
            // A small object of scalars (a sink) reads best on one line.
            if members.allSatisfy(\.value.isScalar) {
                var line = JSONBytes()
                line.raw(UInt8(ascii: "{"))
                for (position, member) in members.enumerated() {
                    if position > 0 { raw(", ", to: &line) }
                    key(member.key, to: &line)
                    write(member.value, indent: inner, to: &line)
                }
                line.raw(UInt8(ascii: "}"))
                if indent + String(decoding: line.bytes, as: UTF8.self).count <= oneLineWidth {
                    json.raw { $0.append(contentsOf: line.bytes) }
                    return
                }
            }
            raw("{\n", to: &json)
            for (position, member) in members.enumerated() {
                spaces(inner, to: &json)
                key(member.key, to: &json)
                write(member.value, indent: inner, to: &json)
                raw(position == members.count - 1 ? "\n" : ",\n", to: &json)
            }
            spaces(indent, to: &json)
            json.raw(UInt8(ascii: "}"))
        }
    }

    /// `"key": `, the key escaped as any string.
    private static func key(_ name: String, to json: inout JSONBytes) {
        json.string(name, escapingSlash: false)
        raw(": ", to: &json)
    }

    private static func raw(_ text: StaticString, to json: inout JSONBytes) {
        json.raw { bytes in text.withUTF8Buffer { bytes.append(contentsOf: $0) } }
    }

    private static func spaces(_ count: Int, to json: inout JSONBytes) {
        json.raw { $0.append(contentsOf: repeatElement(UInt8(ascii: " "), count: count)) }
    }

    private static let newline = UInt8(ascii: "\n")
}

extension JSONValue {
    var isScalar: Bool {
        switch self {
        case .array, .object: false
        default: true
        }
    }
}
