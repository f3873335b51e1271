/// Method and path to the route that answers, with its path parameters: pure, no I/O. An unknown
/// path is 404; a known path asked with another method is 405 with the methods it has (`Allow`).
/// HEAD is answered as GET (the library sends the headers alone).
public struct Router<Endpoint: Sendable>: Sendable {
    public let routes: [Route<Endpoint>]

    public enum Outcome: Sendable {
        case found(Route<Endpoint>, parameters: [String: String])
        case notFound
        case methodNotAllowed(allowed: [String])
    }

    public init(_ routes: [Route<Endpoint>]) {
        for (index, route) in routes.enumerated() {
            precondition(!routes[..<index].contains { $0.method == route.method && $0.pattern == route.pattern },
                         "route \(route.method) \(route.pattern) is in the table twice")
        }
        self.routes = routes
    }

    public func route(method: String, path: String) -> Outcome {
        guard path.first == "/" else { return .notFound }
        let segments = RoutePattern.split(path)
        let asked = method == "HEAD" ? "GET" : method
        var allowed: [String] = []
        for route in routes {
            guard let parameters = route.pattern.match(segments) else { continue }
            if route.method == asked { return .found(route, parameters: parameters) }
            allowed.append(route.method)
            if route.method == "GET" { allowed.append("HEAD") }
        }
        return allowed.isEmpty ? .notFound : .methodNotAllowed(allowed: allowed)
    }
}
