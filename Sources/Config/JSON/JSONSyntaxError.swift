/// Why text is not JSON, and where: `config.json:3:14: expected ',' or '}' after a member`.
public struct JSONSyntaxError: Error, Sendable, Equatable {
    public var line: Int
    public var column: Int
    public var reason: String
}
