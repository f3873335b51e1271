/// The checks every request passes before its endpoint runs, in this order: a route for its path
/// (404) and method (405), the bearer token where the route asks for it (401), and a body the route
/// takes (415). The body's size is the transport's (413, before the body is read). Pure.
public struct RequestGate<Endpoint: Sendable>: Sendable {
    public let router: Router<Endpoint>
    /// nil: no token configured (a loopback listener), so every route is open.
    public let token: BearerToken?

    public init(router: Router<Endpoint>, token: BearerToken?) {
        self.router = router
        self.token = token
    }

    public func admit(_ request: HTTPRequest) -> Result<(route: Route<Endpoint>, parameters: [String: String]), Rejection> {
        switch router.route(method: request.method, path: request.path) {
        case .notFound:
            return .failure(Rejection(HTTPStatus.notFound, "no such resource"))
        case let .methodNotAllowed(allowed):
            let list = allowed.joined(separator: ", ")
            return .failure(Rejection(HTTPStatus.methodNotAllowed, "\(request.method) is not allowed here; allowed: \(list)",
                                      headers: [("Allow", list)]))
        case let .found(route, parameters):
            if route.access == .bearer, let token, !token.admits(request.header("Authorization")) {
                return .failure(Rejection(HTTPStatus.unauthorized, "a bearer token is required (Authorization: Bearer TOKEN)",
                                          headers: [("WWW-Authenticate", "Bearer")]))
            }
            switch route.body {
            case .none where !request.body.isEmpty:
                return .failure(Rejection(HTTPStatus.unsupportedMediaType, "\(route.method) \(route.pattern) takes no body"))
            case .json where request.mediaType != "application/json":
                return .failure(Rejection(HTTPStatus.unsupportedMediaType,
                                          "expected Content-Type: application/json, got \(request.header("Content-Type") ?? "none")"))
            case .none, .json:
                return .success((route, parameters))
            }
        }
    }
}
