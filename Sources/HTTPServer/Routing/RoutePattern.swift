/// A path with named parameters, as the route table writes it: `/v1/activities/{activity}/pause`.
/// A parameter stands for exactly one non-empty segment; everything else must match literally
/// (no trailing slash, no empty segment, case kept).
public struct RoutePattern: Sendable, Hashable, CustomStringConvertible {
    enum Segment: Sendable, Hashable {
        case literal(String)
        case parameter(String)
    }

    let segments: [Segment]
    public let description: String

    /// `text` starts with "/"; `{name}` marks a parameter (a programming error otherwise: the table
    /// is written by us, and a test walks it).
    public init(_ text: String) {
        precondition(text.first == "/", "route pattern \(text) must start with /")
        description = text
        segments = Self.split(text).map { segment in
            if segment.first == "{", segment.last == "}", segment.count > 2 {
                return .parameter(String(segment.dropFirst().dropLast()))
            }
            precondition(!segment.contains("{") && !segment.contains("}"), "route pattern \(text): a brace outside {name}")
            return .literal(String(segment))
        }
    }

    /// The segments of an absolute path (`/a/b` → `a`, `b`; `/` → one empty segment).
    static func split(_ path: String) -> [Substring] {
        path.dropFirst().split(separator: "/", omittingEmptySubsequences: false)
    }

    /// The parameters `segments` gives this pattern, or nil when it does not match.
    func match(_ pathSegments: [Substring]) -> [String: String]? {
        guard pathSegments.count == segments.count else { return nil }
        var parameters: [String: String] = [:]
        for (segment, text) in zip(segments, pathSegments) {
            switch segment {
            case let .literal(literal):
                guard text == literal else { return nil }
            case let .parameter(name):
                guard !text.isEmpty else { return nil }
                parameters[name] = String(text)
            }
        }
        return parameters
    }

    /// The path with `parameters` put in (the fuzz target's round trip; the OpenAPI test's paths).
    public func path(with parameters: [String: String]) -> String {
        "/" + segments.map { segment in
            switch segment {
            case let .literal(text): text
            case let .parameter(name): parameters[name] ?? ""
            }
        }.joined(separator: "/")
    }

    public var parameterNames: [String] {
        segments.compactMap { if case let .parameter(name) = $0 { name } else { nil } }
    }
}
