/// One line of an API's route table: a method and a path pattern, what the request may carry and
/// who may send it, and the endpoint that answers (for an API, its handler).
public struct Route<Endpoint: Sendable>: Sendable {
    /// What the request's body may be.
    public enum Body: Sendable, Equatable {
        /// None: a request with a body is refused (415), so nothing sent is silently ignored.
        case none
        /// A JSON document (`Content-Type: application/json`, else 415); the endpoint reads it.
        case json
    }

    /// Who may call it.
    public enum Access: Sendable, Equatable {
        /// Anyone who reaches the socket: liveness and readiness probes.
        case open
        /// With the configured bearer token, when one is configured (401 otherwise).
        case bearer
    }

    public let method: String
    public let pattern: RoutePattern
    public let body: Body
    public let access: Access
    public let endpoint: Endpoint

    public init(_ method: String, _ pattern: String, body: Body = .none, access: Access = .bearer, _ endpoint: Endpoint) {
        self.method = method
        self.pattern = RoutePattern(pattern)
        self.body = body
        self.access = access
        self.endpoint = endpoint
    }
}
