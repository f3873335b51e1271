import Config
import HTTPServer
import LiveState
import Session

/// The HTTP API of a running bridge (docs/http-api.md, bridge-api.openapi.json): health, metrics,
/// the activities and their controls. Each route is one line of `routes`: method, path, what it
/// takes, who may call it, and its handler (an extension of this type, one file per concern).
/// Requests pass the gate first (404, 405, 401, 415); handlers validate, act through the sessions'
/// entry points and answer with a status and JSON. It runs on the connection's thread.
public struct BridgeAPI: Sendable {
    public typealias Endpoint = @Sendable (BridgeAPI, RoutedRequest) -> HTTPResponse

    let controls: SessionControls
    /// The preview's event streams, fed by every session of the run.
    let preview: PreviewHub
    /// Where the state files live: readiness checks it can still be written.
    let stateDirectory: String
    /// `hrbridge_build_info`'s version label.
    let version: String
    let gate: RequestGate<Endpoint>

    public init(controls: SessionControls, preview: PreviewHub, stateDirectory: String, version: String, token: BearerToken?) {
        self.controls = controls
        self.preview = preview
        self.stateDirectory = stateDirectory
        self.version = version
        gate = RequestGate(router: Router(Self.routes + Self.previewRoutes), token: token)
    }

    static let routes: [Route<Endpoint>] = [
        Route("GET", "/livez", access: .open) { api, _ in api.livez() },
        Route("GET", "/readyz", access: .open) { api, _ in api.readyz() },
        Route("GET", "/metrics") { api, _ in api.metrics() },
        Route("GET", "/v1/activities") { api, _ in api.activities() },
        Route("POST", "/v1/activities/{activity}/pause") { api, request in api.control(.pause, request) },
        Route("POST", "/v1/activities/{activity}/resume") { api, request in api.control(.resume, request) },
        Route("POST", "/v1/activities/{activity}/end") { api, request in api.control(.end, request) },
        Route("PUT", "/v1/activities/{activity}/label", body: .json) { api, request in api.label(request) },
        Route("PUT", "/v1/activities/{activity}/push-token", body: .json) { api, request in api.activityPushToken(request, registering: true) },
        Route("DELETE", "/v1/activities/{activity}/push-token") { api, request in api.activityPushToken(request, registering: false) },
        Route("PUT", "/v1/push-to-start-token", body: .json) { api, request in api.pushToStartToken(request, registering: true) },
        Route("DELETE", "/v1/push-to-start-token") { api, request in api.pushToStartToken(request, registering: false) },
        Route("PUT", "/v1/straps/{strap}/push-to-start-token", body: .json) { api, request in api.pushToStartToken(request, registering: true) },
        Route("DELETE", "/v1/straps/{strap}/push-to-start-token") { api, request in api.pushToStartToken(request, registering: false) },
        Route("GET", "/v1/straps/{strap}/channel") { api, request in api.channel(request) },
    ]

    /// The patterns and methods served, for the OpenAPI contract test.
    public static var routeTable: [(method: String, pattern: String)] {
        (routes + previewRoutes).map { ($0.method, $0.pattern.description) }
    }

    public func answer(_ request: HTTPRequest) -> HTTPResponse {
        switch gate.admit(request) {
        case let .failure(rejection): Self.rejected(rejection)
        case let .success((route, parameters)): route.endpoint(self, RoutedRequest(request: request, parameters: parameters))
        }
    }

    /// A rejection as the API writes every error: `{"error": REASON}` with the status's fields.
    public static func rejected(_ rejection: Rejection) -> HTTPResponse {
        .json(rejection.status, APIJSON.error(rejection.reason), headers: rejection.headers)
    }
}

/// A request its route admitted, with the path's parameters (`activity`).
public struct RoutedRequest: Sendable {
    public let request: HTTPRequest
    public let parameters: [String: String]

    /// A parameter the route's pattern declares (the table guarantees it is there).
    func parameter(_ name: String) -> String { parameters[name] ?? "" }
}
