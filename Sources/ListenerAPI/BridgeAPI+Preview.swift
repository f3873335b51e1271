import HTTPServer
import LiveView
import Session

/// `GET /`, `GET /overlay` and their files (`PageAssets`, built into the binary), and the event
/// streams behind them: `GET /v1/events` and `GET /v1/heart-rate` (`PreviewHub`; docs/preview.md).
extension BridgeAPI {
    /// The page files carry no data: served to anyone who reaches the listener. The streams do
    /// (heart rates, activity ids): they take the bearer token when one is configured.
    static let previewRoutes: [Route<Endpoint>] = [
        Route("GET", "/", access: .open) { api, _ in api.page("/") },
        Route("GET", "/overlay", access: .open) { api, _ in api.page("/overlay") },
        Route("GET", "/assets/{file}", access: .open) { api, request in api.page("/assets/" + request.parameter("file")) },
        Route("GET", "/v1/events") { api, request in api.events(request) },
        Route("GET", "/v1/heart-rate") { api, _ in api.heartRate(strap: nil) },
        Route("GET", "/v1/straps/{strap}/heart-rate") { api, request in api.heartRate(strap: request.parameter("strap")) },
    ]

    /// Stream headers: never cached, never buffered by a proxy (nginx reads `X-Accel-Buffering`).
    static let streamHeaders: [(name: String, value: String)] = [
        ("Content-Type", "text/event-stream"), ("Cache-Control", "no-cache"), ("X-Accel-Buffering", "no"),
    ]

    func page(_ path: String) -> HTTPResponse {
        guard let file = PageAssets.file(at: path) else {
            return .json(HTTPStatus.notFound, APIJSON.error("no file \(path)"))
        }
        return HTTPResponse(status: HTTPStatus.ok, headers: [("Content-Type", file.contentType)] + PageAssets.securityHeaders,
                            body: .bytes(file.body))
    }

    func events(_ routed: RoutedRequest) -> HTTPResponse {
        stream(preview.openEvents(lastEventID: routed.request.header("Last-Event-ID")))
    }

    func heartRate(strap: String?) -> HTTPResponse {
        stream(preview.openHeartRate(strap: strap))
    }

    private func stream(_ opened: Result<EventClient, PreviewHub.Refusal>) -> HTTPResponse {
        switch opened {
        case let .success(client):
            return HTTPResponse(status: HTTPStatus.ok, headers: Self.streamHeaders, body: .stream(client))
        case .failure(.tooManyClients):
            return .json(HTTPStatus.serviceUnavailable, APIJSON.error("\(PreviewHub.clientLimit) event streams are open already"),
                         headers: [("Retry-After", "15")])
        case let .failure(.unknownStrap(known)):
            return .json(HTTPStatus.notFound, APIJSON.error("no strap of that name in this run; it has: \(known.joined(separator: ", "))"))
        }
    }
}

/// An event stream is a body the listener sends while it is produced: `next` blocks on the
/// connection's own thread until the hub has bytes for it, `close` ends it.
extension EventClient: HTTPStream {}
