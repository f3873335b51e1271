import HTTPServer
import Testing

/// The router and the gate before an endpoint: pure, so a table of requests and their answers.
struct RouterTests {
    static let router = Router<String>([
        Route("GET", "/livez", access: .open, "livez"),
        Route("GET", "/v1/activities", "list"),
        Route("POST", "/v1/activities/{activity}/pause", "pause"),
        Route("PUT", "/v1/activities/{activity}/label", body: .json, "label"),
        Route("DELETE", "/v1/activities/{activity}/label", "unlabel"),
    ])

    static func found(_ method: String, _ path: String) -> (String, [String: String])? {
        if case let .found(route, parameters) = router.route(method: method, path: path) { return (route.endpoint, parameters) }
        return nil
    }

    @Test func aPathAndMethodFindTheirRouteWithItsParameters() {
        #expect(Self.found("GET", "/livez")?.0 == "livez")
        #expect(Self.found("HEAD", "/livez")?.0 == "livez", "HEAD is answered as GET")
        let pause = Self.found("POST", "/v1/activities/hrbridge-20240101T060000Z-1/pause")
        #expect(pause?.0 == "pause" && pause?.1 == ["activity": "hrbridge-20240101T060000Z-1"])
    }

    @Test func unknownPathsAre404AndOtherMethods405WithWhatIsAllowed() {
        for path in ["/", "/livez/", "//livez", "/v1/activities//pause", "/v1/activities/a/pause/x", "livez", "", "/LIVEZ"] {
            guard case .notFound = Self.router.route(method: "GET", path: path) else {
                Issue.record("\(path) should be 404")
                continue
            }
        }
        guard case let .methodNotAllowed(allowed) = Self.router.route(method: "POST", path: "/livez") else {
            Issue.record("POST /livez should be 405")
            return
        }
        #expect(allowed == ["GET", "HEAD"])
        guard case let .methodNotAllowed(labelAllowed) = Self.router.route(method: "GET", path: "/v1/activities/a/label") else {
            Issue.record("GET …/label should be 405")
            return
        }
        #expect(labelAllowed == ["PUT", "DELETE"])
    }

    @Test func aPatternPutsItsParametersBack() {
        let pattern = RoutePattern("/v1/activities/{activity}/label")
        #expect(pattern.parameterNames == ["activity"])
        #expect(pattern.path(with: ["activity": "x-1"]) == "/v1/activities/x-1/label")
    }

    static func request(_ method: String, _ path: String, headers: [(name: String, value: String)] = [], body: String = "") -> HTTPRequest {
        HTTPRequest(method: method, path: path, headers: headers, body: Array(body.utf8))
    }

    @Test func theGateAsksForTheTokenAndAJSONBody() throws {
        let gate = RequestGate(router: Self.router, token: try #require(BearerToken("s3cret-token")))
        func status(_ request: HTTPRequest) -> Int {
            switch gate.admit(request) {
            case .success: 200
            case let .failure(rejection): rejection.status
            }
        }
        let bearer = [(name: "authorization", value: "bearer s3cret-token")]
        #expect(status(Self.request("GET", "/livez")) == 200, "open without a token")
        #expect(status(Self.request("GET", "/v1/activities")) == 401)
        #expect(status(Self.request("GET", "/v1/activities", headers: [("Authorization", "Bearer s3cret-tokeN")])) == 401)
        #expect(status(Self.request("GET", "/v1/activities", headers: [("Authorization", "Basic s3cret-token")])) == 401)
        #expect(status(Self.request("GET", "/v1/activities", headers: [("Authorization", "Bearer s3cret-token2")])) == 401)
        #expect(status(Self.request("GET", "/v1/activities", headers: bearer)) == 200, "scheme in any case")
        #expect(status(Self.request("POST", "/v1/activities/a/pause", headers: bearer, body: "{}")) == 415, "takes no body")
        #expect(status(Self.request("PUT", "/v1/activities/a/label", headers: bearer, body: "{}")) == 415, "no content type")
        #expect(status(Self.request("PUT", "/v1/activities/a/label", headers: bearer + [("Content-Type", "text/plain")], body: "{}")) == 415)
        #expect(status(Self.request("PUT", "/v1/activities/a/label",
                                    headers: bearer + [("content-type", "Application/JSON; charset=utf-8")], body: "{}")) == 200)
        #expect(status(Self.request("GET", "/nowhere", headers: bearer)) == 404)

        guard case let .failure(unauthorized) = gate.admit(Self.request("GET", "/v1/activities")) else { return }
        #expect(unauthorized.headers.contains { $0 == ("WWW-Authenticate", "Bearer") })
        guard case let .failure(notAllowed) = gate.admit(Self.request("PATCH", "/v1/activities", headers: bearer)) else { return }
        #expect(notAllowed.status == 405 && notAllowed.headers.contains { $0 == ("Allow", "GET, HEAD") })
    }

    @Test func withoutATokenEveryRouteIsOpen() {
        let gate = RequestGate(router: Self.router, token: nil)
        guard case .success = gate.admit(Self.request("GET", "/v1/activities")) else {
            Issue.record("no token configured: open")
            return
        }
    }

    @Test func aBearerTokenCannotHoldWhatAHeaderCannotCarry() {
        #expect(BearerToken("") == nil)
        #expect(BearerToken("two words") == nil)
        #expect(BearerToken("line\n") == nil)
        #expect(BearerToken("abc.DEF-123_~+/=") != nil)
    }
}
