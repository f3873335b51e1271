import Foundation
import ProcessTestSupport
import Testing
@testable import Forwarding

/// The libcurl client against real servers on 127.0.0.1.
@Suite(.timeLimit(.minutes(1))) struct HTTPClientTests {
    static func scripted(_ answers: String) throws -> ServerProcess {
        try ServerProcess(script: "scripted_http_server.py", arguments: [answers])
    }

    @Test func postsExactBodyAndHeadersAndReadsTheAnswer() throws {
        let server = try Self.scripted(#"[{"status": 201, "body": "{\"ok\":true}", "headers": {"X-Answer": "yes"}}]"#)
        let client = HTTPClient(configuration: .init())
        let body = Array(#"{"event":"start","sequence":1}"#.utf8)
        let request = HTTPRequest(url: server.baseURL + "/activities/a1/start",
                                  headers: [.init("Content-Type", "application/json"), .init("Idempotency-Key", "a1:1")], body: body)
        let response = try client.send(request).get()
        #expect(response.status == 201)
        #expect(response.body == Array(#"{"ok":true}"#.utf8))
        #expect(response.headers["x-answer"] == "yes")
        let received = try #require(server.requests().first)
        #expect(received.method == "POST")
        #expect(received.path == "/activities/a1/start")
        #expect(received.body == #"{"event":"start","sequence":1}"#)
        #expect(received.header("idempotency-key") == "a1:1")
        #expect(received.header("content-type") == "application/json")
        #expect(received.header("expect") == nil)
    }

    @Test func sendsSeveralRequestsInOrderFromOneClient() throws {
        let server = try Self.scripted("[]")
        let client = HTTPClient(configuration: .init())
        for index in 1...3 {
            let request = HTTPRequest(url: server.baseURL + "/r\(index)", headers: [], body: [UInt8(ascii: "x")])
            #expect(try client.send(request).get().status == 200)
        }
        #expect(server.requests().map(\.path) == ["/r1", "/r2", "/r3"])
    }

    @Test func reportsRefusedConnectionsTimeoutsAndDroppedConnections() throws {
        let refused = HTTPClient(configuration: .init(connectTimeout: 1))
        let closedPort = try Self.scripted("[]")
        closedPort.stop()
        let result = refused.send(HTTPRequest(url: closedPort.baseURL + "/x", headers: [], body: []))
        guard case .failure(.couldNotConnect) = result else { Issue.record("expected couldNotConnect, got \(result)"); return }

        let slow = try Self.scripted(#"[{"status": 200, "delay": 3}]"#)
        let impatient = HTTPClient(configuration: .init(requestTimeout: 0.5))
        let slowResult = impatient.send(HTTPRequest(url: slow.baseURL + "/x", headers: [], body: []))
        guard case .failure(.timedOut) = slowResult else { Issue.record("expected timedOut, got \(slowResult)"); return }

        let closing = try Self.scripted(#"[{"close": true}]"#)
        let closedResult = HTTPClient(configuration: .init()).send(HTTPRequest(url: closing.baseURL + "/x", headers: [], body: []))
        guard case .failure(.transport) = closedResult else { Issue.record("expected transport failure, got \(closedResult)"); return }
    }

    @Test func speaksHTTP2OverVerifiedTLS() throws {
        let certificates = try TestCertificates.make()
        let server = try ServerProcess(script: "h2_push_server.py",
                                       arguments: [certificates.serverCertificate, certificates.serverKey, "[]"])
        let url = "https://127.0.0.1:\(server.port)/3/device/abc"
        let client = HTTPClient(configuration: .init(certificateAuthorityFile: certificates.caFile, requireHTTP2: true))
        let response = try client.send(HTTPRequest(url: url, headers: [.init("apns-push-type", "liveactivity")], body: Array("{}".utf8))).get()
        #expect(response.status == 200)
        #expect(response.httpVersion == .http2)
        #expect(response.headers["apns-id"] != nil)
        let received = try #require(server.requests().first)
        #expect(received.alpn == "h2")
        #expect(received.header(":method") == "POST")
        #expect(received.header(":path") == "/3/device/abc")
        #expect(received.header("apns-push-type") == "liveactivity")

        // Without our CA the same server is refused: verification is really on.
        let trusting = HTTPClient(configuration: .init(requireHTTP2: true))
        let result = trusting.send(HTTPRequest(url: url, headers: [], body: []))
        guard case .failure(.tlsRejected) = result else { Issue.record("expected tlsRejected, got \(result)"); return }
    }
}
