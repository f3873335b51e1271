import Foundation
import LiveState
import ProcessTestSupport
import Sensors
import TestSupport
import Testing
@testable import Forwarding

/// `--sink fcm` against fcm_server.py on 127.0.0.1: Google's OAuth token endpoint, which checks the
/// RS256 assertion with python3-cryptography, and FCM's HTTP v1 send endpoint with its error bodies.
@Suite(.timeLimit(.minutes(1))) struct FCMSinkTests {
    static let registrationToken = "fcm-registration-token-0123456789"

    /// A service account with a fresh RSA key, a server trusting its public key, and the key file
    /// naming the server's token endpoint.
    final class Rig {
        let directory: TemporaryDirectory
        let server: ServerProcess
        let accountPath: String
        let log = LogLines()

        init(answers: String = "[]", signWithAnotherKey: Bool = false) throws {
            directory = try TemporaryDirectory()
            let key = directory.path("account.pem")
            try runTool("/usr/bin/openssl", ["genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2048", "-out", key])
            let publicKey = directory.path("account.pub.pem")
            try runTool("/usr/bin/openssl", ["pkey", "-in", key, "-pubout", "-out", publicKey])
            server = try ServerProcess(script: "fcm_server.py", arguments: [publicKey, answers])
            let signing = signWithAnotherKey ? directory.path("other.pem") : key
            if signWithAnotherKey {
                try runTool("/usr/bin/openssl", ["genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2048", "-out", signing])
            }
            let account: [String: String] = [
                "type": "service_account", "project_id": "hrbridge-test", "private_key_id": "k1",
                "private_key": try String(contentsOfFile: signing, encoding: .utf8),
                "client_email": "bridge@hrbridge-test.iam.gserviceaccount.com", "token_uri": "\(server.baseURL)/token",
            ]
            accountPath = try directory.write("service-account.json",
                                              String(decoding: try JSONSerialization.data(withJSONObject: account), as: UTF8.self))
        }

        func sink(target: FCMMessage.Target = .token(FCMSinkTests.registrationToken), spool: Bool = false) throws -> NetworkSink {
            .fcm(account: try FCMServiceAccount(contentsOfFile: accountPath), project: "hrbridge-test", target: target,
                 baseURL: server.baseURL, http: HTTPClientConfiguration(), settings: FastDelivery.settings,
                 spoolDirectory: spool ? directory.path("spool") : nil, log: log.sink)
        }

        var sends: [RecordedRequest] { server.requests().filter { $0.path != "/token" } }
        var exchanges: [RecordedRequest] { server.requests().filter { $0.path == "/token" } }
    }

    static func message(_ request: RecordedRequest) -> [String: Any] { request.jsonBody?["message"] as? [String: Any] ?? [:] }

    @Test func sendsEachStepAsStringDataWithOneAccessToken() throws {
        let rig = try Rig()
        let sink = try rig.sink()
        var updates = SampleUpdates.activity(count: 3)
        updates[1].contentState.distanceMeters = 1234.5
        for update in updates { try sink.accept(update) }
        sink.finish(grace: 5)

        #expect(rig.exchanges.count == 1 && rig.exchanges[0].refused == nil, "one OAuth exchange, verified by the server")
        try #require(rig.sends.count == 3)
        for (request, update) in zip(rig.sends, updates) {
            #expect(request.path == "/v1/projects/hrbridge-test/messages:send")
            #expect(request.header("authorization") == "Bearer ya29.test-1")
            let message = Self.message(request)
            #expect(message["token"] as? String == Self.registrationToken && message["topic"] == nil)
            var expected: [String: String] = [
                "event": update.event.rawValue, "reason": update.reason.rawValue, "activity": "run-1",
                "sequence": String(update.sequence), "workoutName": "Morning run",
                "timerStart": "1704088800000", "timerEnd": "1704117600000",
                "distanceMeters": update.sequence == 2 ? "1234.5" : "0", "label": "Warm-up",
                "staleAt": String(update.staleDate.microsecondsSinceUnixEpoch / 1000), "heartRate": String(update.contentState.heartRate!),
            ]
            if update.event == .end {
                expected["pausedAt"] = String(update.timestamp.microsecondsSinceUnixEpoch / 1000)
                expected["dismissAt"] = String(update.dismissalDate!.microsecondsSinceUnixEpoch / 1000)
            }
            #expect(message["data"] as? [String: String] == expected)
            let android = message["android"] as? [String: String]
            #expect(android == ["priority": update.event == .update ? "normal" : "high", "collapse_key": "run-1", "ttl": "120s"])
        }
        #expect(sink.counters.sent == 3)
    }

    @Test func errorsAreReadByTheirCode() throws {
        let rig = try Rig(answers: #"""
        [{"status": 400, "errorCode": "INVALID_ARGUMENT"}, {"status": 429, "errorCode": "QUOTA_EXCEEDED", "headers": {"Retry-After": "0"}},
         {"status": 200}, {"status": 503, "errorCode": "UNAVAILABLE"}, {"status": 500, "errorCode": "INTERNAL"}, {"status": 200}]
        """#)
        let sink = try rig.sink(target: .topic("workouts"))
        for update in SampleUpdates.activity(count: 3) { try sink.accept(update) }
        sink.finish(grace: 5)
        #expect(rig.sends.map { Self.message($0)["data"].flatMap { ($0 as? [String: String])?["event"] } } == ["start", "update", "update", "end", "end", "end"])
        #expect(rig.sends.allSatisfy { Self.message($0)["topic"] as? String == "workouts" })
        #expect(sink.counters.sent == 2 && sink.counters.failed == 1 && sink.counters.retried == 3)
        #expect(rig.log.all.contains { $0.contains("refused, dropped: FCM 400 INVALID_ARGUMENT: scripted") }, "\(rig.log.all)")
    }

    @Test func anUnregisteredTokenGetsNothingMore() throws {
        let rig = try Rig(answers: #"[{"status": 200}, {"status": 404, "errorCode": "UNREGISTERED"}]"#)
        let sink = try rig.sink()
        for update in SampleUpdates.activity(count: 2) { try sink.accept(update) }
        #expect(eventually { rig.sends.count == 2 })
        try sink.accept(SampleUpdates.update(.start, activity: "run-2", sequence: 1))
        sink.finish(grace: 2)
        #expect(rig.sends.count == 2, "nothing after UNREGISTERED")
        #expect(rig.log.all.contains { $0.contains("FCM 404 UNREGISTERED: scripted: no more messages to token fcm-regi…") }, "\(rig.log.all)")
    }

    @Test func aRefusedAccessTokenIsExchangedAgainOnce() throws {
        let rig = try Rig(answers: #"[{"status": 200}, {"revoke": true}, {"status": 200}]"#)
        let sink = try rig.sink()
        for update in SampleUpdates.activity(count: 2) { try sink.accept(update) }
        sink.finish(grace: 5)
        #expect(rig.exchanges.count == 2)
        #expect(rig.sends.map { $0.header("authorization") } == ["Bearer ya29.test-1", "Bearer ya29.test-1", "Bearer ya29.test-2"])
        #expect(sink.counters.sent == 2)
    }

    /// A key the token endpoint does not accept: nothing can be sent; the sink says how to fix it and
    /// keeps the start and end for the spool.
    @Test func aRefusedServiceAccountHaltsTheSinkAndSpoolsItsLifecycle() throws {
        let rig = try Rig(signWithAnotherKey: true)
        let sink = try rig.sink(spool: true)
        for update in SampleUpdates.activity(count: 3) { try sink.accept(update) }
        sink.finish(grace: 2)
        #expect(rig.sends.isEmpty && rig.exchanges.count == 1 && rig.exchanges[0].refused != nil)
        #expect(rig.log.all.contains { $0.contains("OAuth token endpoint 400 invalid_grant: Invalid JWT Signature.: check the service-account key file") },
                "\(rig.log.all)")
        #expect(sink.counters.spooled == 2)
    }

    /// The server's own check, so the tests above would notice a number in `data`.
    @Test func theServerRefusesANonStringDataValueAsFCMDoes() throws {
        let rig = try Rig()
        let client = HTTPClient(configuration: HTTPClientConfiguration())
        let account = try FCMServiceAccount(contentsOfFile: rig.accountPath)
        let token = try GoogleAccessToken(account: account, client: client, now: WallClock.now).token()
        let body = #"{"message": {"topic": "t", "data": {"heartRate": 120}}}"#
        let response = try client.send(HTTPRequest(url: "\(rig.server.baseURL)/v1/projects/hrbridge-test/messages:send",
                                                   headers: [HTTPHeader("Authorization", "Bearer \(token)")], body: Array(body.utf8))).get()
        #expect(response.status == 400)
        #expect(FCMTransmitter.error(response.body)?.code == "INVALID_ARGUMENT")
    }

    @Test func aReplayedWorkoutReachesFCM() throws {
        let rig = try Rig()
        let result = ReplaySinkTests.replay(["--sink", "fcm", "--fcm-service-account-file", rig.accountPath, "--fcm-server", rig.server.baseURL,
                                             "--fcm-topic", "workouts", "--spool", rig.directory.path("spool")])
        #expect(result.status == .success, "\(result.log)")
        let events = rig.sends.compactMap { (Self.message($0)["data"] as? [String: String])?["event"] }
        #expect(events.first == "start" && events.last == "end" && events.count > 2)
        #expect(result.log.contains("sink fcm done: sent \(events.count),"))
    }
}
