/// Why an XML document cannot be read: not well-formed (an unclosed or mismatched tag, a bad
/// entity, an undeclared prefix…) or unreadable, at the line where it shows.
struct XMLError: Error, Sendable, Hashable {
    var line: Int
    var reason: String
}
