import Foundation
import ProcessTestSupport
import TestSupport
import Testing
@testable import Forwarding

/// The push-token flow over the listener: the app's backend registers tokens with curl and
/// Python's http.client at a real `hrbridge replay --speed N --listen …` pushing to the HTTP/2 APNs
/// test server; every exchange is placed under the OpenAPI contract.
@Suite(.serialized, .timeLimit(.minutes(2))) struct PushTokenHTTPTests {
    /// A 32-byte token of `seed` repeated.
    static func token(_ seed: String) -> PushToken {
        try! PushToken.parse(String(repeating: seed, count: 64 / seed.count)).get()
    }

    static let (first, second, third) = (token("a1"), token("b2"), token("c3"))
    static let startToken = token("5d")

    final class Rig {
        let files: TemporaryDirectory
        let certificates: TestCertificates
        let server: ServerProcess
        let keyPath: String

        init(answers: String) throws {
            files = try TemporaryDirectory()
            certificates = try TestCertificates.make()
            server = try ServerProcess(script: "h2_push_server.py", arguments: [certificates.serverCertificate, certificates.serverKey, answers])
            keyPath = try TestCertificates.makeAPNsKey(in: files)
        }

        /// The bundled trace at 10×, from now, listening; `state`: an earlier bridge's files, to start again on its state.
        func bridge(state: TemporaryDirectory? = nil) throws -> ListeningBridge {
            try ListeningBridge(["--speed", "10", "--from-now", "--control-bus", "none", "--sink", "stdout",
                                 "--sink", "apns", "--apns-server", "https://127.0.0.1:\(server.port)", "--ca-file", certificates.caFile,
                                 "--apns-key-file", keyPath, "--apns-key-id", "KEY1234567", "--apns-team-id", "TEAM123456",
                                 "--apns-bundle-id", "com.example.hrbridge"], files: state)
        }

        func pushes(to token: PushToken) -> [[String: Any]] {
            server.requests().filter { $0.header(":path") == "/3/device/\(token.hex)" }.map { $0.jsonBody?["aps"] as? [String: Any] ?? [:] }
        }
    }

    static func body(_ token: PushToken, issuedAt: Int? = nil) -> String {
        #"{"token":"\#(token.hex)"\#(issuedAt.map { #","issuedAt":\#($0)"# } ?? "")}"#
    }

    /// push-to-start → register (Python) → rotate → 410 → register again (curl) → crash → restart:
    /// as over MQTT, each push to the newest token, nothing while none is usable, and the end the
    /// restarted run owes to the token registered before the crash.
    @Test func theWholeFlowOverHTTP() throws {
        let gone = "/3/device/\(Self.second.hex)"
        let rig = try Rig(answers: #"[{"path": "\#(gone)", "status": 200}, {"path": "\#(gone)", "status": 410, "reason": "Unregistered"}]"#)
        let listening = try rig.bridge()
        let registered = try listening.curl("PUT", "/v1/push-to-start-token", json: Self.body(Self.startToken))
        #expect(registered.status == 200 && registered.json["strap"] as? String == "replay" && registered.json["change"] as? String == "registered",
                "\(registered.body)")
        #expect(listening.bridge.wait(timeout: 20) { !rig.pushes(to: Self.startToken).isEmpty }, "\(listening.bridge.log)")
        let start = try #require(rig.pushes(to: Self.startToken).first)
        let id = try #require((start["attributes"] as? [String: Any])?["bridgeActivityID"] as? String)
        #expect(start["event"] as? String == "start" && start["input-push-token"] as? Int == 1)
        // Pending once APNs' answer to the push-to-start is in (the server logs the request before it answers).
        #expect(listening.bridge.wait(timeout: 10) {
            let listed = (try? listening.curl("GET", "/v1/activities", record: false))?.json["activities"] as? [[String: Any]]
            return listed?.first?["activity"] as? String == id && listed?.first?["pushToken"] as? String == "pending"
        }, "\(listening.bridge.log)")
        #expect(try listening.curl("GET", "/v1/activities").status == 200)

        let issued = Int(Date().timeIntervalSince1970)
        let python = try runTool("/usr/bin/python3", ["-c", """
            import http.client, sys
            host, port = sys.argv[1].rsplit(":", 1)
            connection = http.client.HTTPConnection(host, int(port), timeout=10)
            connection.request("PUT", "/v1/activities/" + sys.argv[2] + "/push-token", sys.argv[3], {"Content-Type": "application/json"})
            answer = connection.getresponse()
            print(answer.status, answer.read().decode())
            """, String(listening.base.dropFirst("http://".count)), id, Self.body(Self.first, issuedAt: issued)])
        #expect(python == "200 {\"activity\":\"\(id)\",\"change\":\"registered\",\"pushToken\":\"registered\"}\n", "\(python)")
        #expect(listening.bridge.wait(timeout: 10) { rig.pushes(to: Self.first).count >= 2 }, "\(listening.bridge.log)")
        let path = "/v1/activities/\(id)/push-token"
        #expect(try listening.curl("PUT", path, json: Self.body(Self.second, issuedAt: issued + 10)).status == 200)
        let older = try listening.curl("PUT", path, json: Self.body(Self.first, issuedAt: issued + 5))
        #expect(older.status == 409 && (older.json["error"] as? String ?? "").contains("older than the registered token's"), "\(older.body)")
        #expect(listening.bridge.wait(timeout: 10) {
            (try? listening.curl("GET", "/v1/activities", record: false))?.body.contains(#""pushToken":"unregistered""#) == true
        }, "\(listening.bridge.log)")
        let heldAt = rig.server.requests().count
        Thread.sleep(forTimeInterval: 1)
        #expect(rig.server.requests().count == heldAt, "nothing goes while no token is usable")
        #expect(try listening.curl("PUT", path, json: Self.body(Self.third, issuedAt: issued + 20)).status == 200)
        #expect(listening.bridge.wait(timeout: 10) { !rig.pushes(to: Self.third).isEmpty }, "\(listening.bridge.log)")
        #expect(rig.pushes(to: Self.second).count == 2, "one taken, one answered 410")

        // Bad input: each its status, and the tokens in place stay.
        for (body, status, says) in [
            (#"{"token":"xyz"}"#, 400, "token: expected hex digits"), (#"{"token":"abcd"}"#, 400, "expected at least 8 bytes"),
            (#"{"token":"#, 400, "not JSON"), (#"{"token":"\#(Self.first.hex)","activity":"other"}"#, 400, "the body names other"),
        ] {
            let answer = try listening.curl("PUT", path, json: body)
            #expect(answer.status == status && (answer.json["error"] as? String ?? "").contains(says), "\(body): \(answer.body)")
        }
        #expect(try listening.curl("PUT", "/v1/activities/hrbridge-19700101T000000Z-1/push-token", json: Self.body(Self.first)).status == 404)
        #expect(try listening.curl("PUT", "/v1/straps/nobody/push-to-start-token", json: Self.body(Self.first)).status == 404)
        #expect(try listening.curl("PUT", path, headers: [("Content-Type", "text/plain")], extra: ["--data-binary", Self.body(Self.first)]).status == 415)
        #expect(try listening.curl("DELETE", "/v1/straps/replay/push-to-start-token").json["change"] as? String == "forgotten")
        #expect(try listening.curl("DELETE", "/v1/push-to-start-token").json["change"] as? String == "absent")
        #expect(!listening.bridge.log.contains(Self.third.hex), "no log holds a whole token")
        #expect(try listening.validateExchanges() == "ok \(listening.exchanges.count)\n")

        listening.bridge.send(SIGKILL)
        _ = listening.bridge.exitStatus(timeout: 10)
        let next = try rig.bridge(state: listening.files)
        #expect(next.bridge.wait(timeout: 20) { rig.pushes(to: Self.third).contains { $0["event"] as? String == "end" } }, "\(next.bridge.log)")
        #expect(next.stop() == 143, "\(next.bridge.log)")
    }
}
