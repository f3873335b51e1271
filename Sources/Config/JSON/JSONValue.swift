import Platform

/// A parsed JSON value that keeps what a strict config reader needs and Foundation's
/// JSONSerialization loses: member order, integers apart from fractions, booleans apart from
/// numbers, and the line each value started on.
public indirect enum JSONValue: Sendable, Equatable {
    case null
    case bool(Bool)
    /// The number as written (`5`, `2.5`, `1e3`): integers stay exact; readers convert.
    case number(String)
    case string(String)
    case array([JSONValue])
    /// Members in file order; the parser has already refused duplicate keys.
    case object([Member])

    public struct Member: Sendable, Equatable {
        public var key: String
        public var value: JSONValue

        public init(_ key: String, _ value: JSONValue) {
            self.key = key
            self.value = value
        }
    }

    /// How error messages name a value's kind: "expected a string, got a number (42)".
    public var kindDescription: String {
        switch self {
        case .null: "null"
        case let .bool(value): "a boolean (\(value))"
        case let .number(text): "a number (\(text))"
        case let .string(text): "a string (\(text.jsonQuoted))"
        case .array: "an array"
        case .object: "an object"
        }
    }
}
