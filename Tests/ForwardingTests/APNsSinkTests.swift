import Foundation
import ProcessTestSupport
import Sensors
import LiveState
import TestSupport
import Testing
@testable import Forwarding
import SinkVocabulary

/// The iOS app's content state, copied from the app's design notes (DESIGN.md §4): what the phone decodes
/// from `content-state`.
struct PhoneContentState: Decodable, Equatable {
    var timerRange: ClosedRange<Date>
    var pausedAt: Date?
    var heartRate: Int?
    var distanceMeters: Double
    var intervalLabel: String
}

/// `--sink apns` against a real HTTP/2 TLS server (python3-h2) on 127.0.0.1, trusted through a test CA.
@Suite(.timeLimit(.minutes(1))) struct APNsSinkTests {
    static let deviceToken = String(repeating: "ab12", count: 16)
    static let startToken = String(repeating: "cd34", count: 16)

    /// A push server, a team key, and a sink wired to both.
    final class Rig {
        let directory: TemporaryDirectory
        let certificates: TestCertificates
        let server: ServerProcess
        let keyPath: String
        let publicKeyPath: String
        let log = LogLines()
        let sink: NetworkSink

        init(answers: String = "[]", pushToStart: Bool = false, workerSettings: DeliveryWorker.Settings = FastDelivery.settings) throws {
            directory = try TemporaryDirectory()
            certificates = try TestCertificates.make()
            server = try ServerProcess(script: "h2_push_server.py",
                                       arguments: [certificates.serverCertificate, certificates.serverKey, answers])
            keyPath = try TestCertificates.makeAPNsKey(in: directory)
            publicKeyPath = directory.path("public.pem")
            try runTool("/usr/bin/openssl", ["pkey", "-in", keyPath, "-pubout", "-out", publicKeyPath])
            let settings = APNsSinkSettings(baseURL: "https://127.0.0.1:\(server.port)", bundleID: "com.example.hrbridge",
                                        deviceToken: APNsSinkTests.deviceToken,
                                        pushToStartToken: pushToStart ? APNsSinkTests.startToken : nil)
            let tokens = ProviderTokenSource(key: try SigningKey(contentsOfFile: keyPath), keyID: "KEY1234567", teamID: "TEAM123456")
            sink = .apns(settings: settings, tokens: tokens, http: HTTPClientConfiguration(certificateAuthorityFile: certificates.caFile),
                         settings: workerSettings, spoolDirectory: nil, log: log.sink)
        }

        /// Checks the JWT with python3-cryptography; returns its claims.
        func verifiedClaims(_ authorization: String?) throws -> [String: Any] {
            let token = try #require(authorization?.split(separator: " ").last.map(String.init))
            #expect(authorization?.hasPrefix("bearer ") == true)
            let verifier = TestScripts.path("verify_jwt.py")
            let output = try runTool("/usr/bin/python3", [verifier, publicKeyPath, token])
            let decoded = try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: [String: Any]])
            #expect(decoded["header"]?["kid"] as? String == "KEY1234567")
            #expect(decoded["header"]?["alg"] as? String == "ES256")
            return decoded["claims"] ?? [:]
        }
    }

    static func aps(_ request: RecordedRequest) -> [String: Any] { request.jsonBody?["aps"] as? [String: Any] ?? [:] }

    @Test func pushesOverHTTP2WithAPNsHeadersAndAnIndependentlyVerifiedToken() throws {
        let rig = try Rig()
        let updates = [
            SampleUpdates.update(.start, sequence: 1),
            SampleUpdates.update(.update, sequence: 2, heartRate: 131),
            SampleUpdates.update(.update, sequence: 3, heartRate: nil, reason: .sensorLost),
            SampleUpdates.update(.end, sequence: 4, heartRate: 128),
        ]
        // One at a time, as a live workout produces them (a backlog would let newer content supersede).
        for (index, update) in updates.enumerated() {
            try rig.sink.accept(update)
            #expect(eventually { rig.server.requests().count == index + 1 })
        }
        rig.sink.finish(grace: 10)
        let received = rig.server.requests()
        try #require(received.count == 4)
        let before = Int(Date().timeIntervalSince1970)
        for (request, update) in zip(received, updates) {
            #expect(request.alpn == "h2")
            #expect(request.header(":method") == "POST")
            #expect(request.header(":scheme") == "https")
            #expect(request.header(":path") == "/3/device/\(Self.deviceToken)")
            #expect(request.header("apns-push-type") == "liveactivity")
            #expect(request.header("apns-topic") == "com.example.hrbridge.push-type.liveactivity")
            #expect(request.header("apns-expiration") == String(update.staleDate.microsecondsSinceUnixEpoch / 1_000_000))
            let claims = try rig.verifiedClaims(request.header("authorization"))
            #expect(claims["iss"] as? String == "TEAM123456")
            let iat = try #require(claims["iat"] as? Int, "iat is a JSON number")
            #expect(abs(iat - before) < 120, "iat is the wall clock, not the trace's")

            let aps = Self.aps(request)
            #expect(aps["timestamp"] as? Int == Int(update.timestamp.microsecondsSinceUnixEpoch / 1_000_000))
            #expect(aps["stale-date"] as? Int == Int(update.staleDate.microsecondsSinceUnixEpoch / 1_000_000))
            #expect(aps["relevance-score"] == nil)
            #expect(aps["attributes"] == nil)
            // content-state decodes as ActivityKit does: a plain JSONDecoder, dates since 2001.
            let stateJSON = try JSONSerialization.data(withJSONObject: try #require(aps["content-state"]))
            let state = try JSONDecoder().decode(PhoneContentState.self, from: stateJSON)
            #expect(state.timerRange == update.contentState.timerRange)
            #expect(state.pausedAt == update.contentState.pausedAt)
            #expect(state.heartRate == update.contentState.heartRate)
            #expect(state.intervalLabel == "Warm-up")
        }
        #expect(received.map { $0.header("apns-priority") } == ["10", "5", "10", "10"])
        #expect(received.map { Self.aps($0)["event"] as? String } == ["update", "update", "update", "end"])
        #expect(received.map { Self.aps($0)["dismissal-date"] as? Int } == [nil, nil, nil, Int(updates[3].dismissalDate!.microsecondsSinceUnixEpoch / 1_000_000)])
        // One provider token, reused for every push.
        #expect(Set(received.map { $0.header("authorization") }).count == 1)
        #expect(rig.sink.counters.sent == 4)
    }

    @Test func pushToStartCarriesAttributesAndAlertToTheStartToken() throws {
        let rig = try Rig(pushToStart: true)
        try rig.sink.accept(SampleUpdates.update(.start, sequence: 1, workoutName: "Tempo run"))
        try rig.sink.accept(SampleUpdates.update(.update, sequence: 2))
        rig.sink.finish(grace: 10)
        let received = rig.server.requests()
        try #require(received.count == 2)
        #expect(received[0].header(":path") == "/3/device/\(Self.startToken)")
        let start = Self.aps(received[0])
        #expect(start["event"] as? String == "start")
        #expect(start["attributes-type"] as? String == "WorkoutActivityAttributes")
        #expect((start["attributes"] as? [String: Any])?["workoutName"] as? String == "Tempo run")
        #expect((start["alert"] as? [String: Any])?["title"] as? String == "Workout started")
        #expect(received[1].header(":path") == "/3/device/\(Self.deviceToken)")
        #expect(Self.aps(received[1])["event"] as? String == "update")
    }

    @Test func expiredProviderTokenIsRenewedAndRetriedOnce() throws {
        let rig = try Rig(answers: #"[{"status": 403, "reason": "ExpiredProviderToken"}, {"status": 200}]"#)
        try rig.sink.accept(SampleUpdates.update(.start, sequence: 1))
        rig.sink.finish(grace: 10)
        let received = rig.server.requests()
        try #require(received.count == 2)
        #expect(received[0].header("authorization") != received[1].header("authorization"))
        _ = try rig.verifiedClaims(received[1].header("authorization"))
        #expect(rig.sink.counters.sent == 1)
        #expect(rig.sink.counters.failed == 0)
    }

    @Test func unregisteredTokenStopsAllSendingToIt() throws {
        let rig = try Rig(answers: #"[{"status": 200}, {"status": 410, "reason": "Unregistered"}]"#)
        for update in SampleUpdates.activity(count: 2) { try rig.sink.accept(update) }
        #expect(eventually { rig.server.requests().count == 2 })
        #expect(eventually { rig.log.all.contains { $0.contains("410 Unregistered") } })
        try rig.sink.accept(SampleUpdates.update(.start, activity: "run-2", sequence: 1))
        rig.sink.finish(grace: 2)
        #expect(rig.server.requests().count == 2, "nothing more is sent to an unregistered token")
        #expect(rig.sink.counters.sent == 1)
        #expect(rig.sink.counters.failed == 2)
    }

    @Test func badRequestsAreDroppedAndA429StormAndServerErrorsAreWaitedOut() throws {
        let answers = #"""
        [{"status": 400, "reason": "BadExpirationDate"}, {"status": 413, "reason": "PayloadTooLarge"},
         {"status": 429, "reason": "TooManyRequests"}, {"status": 429, "reason": "TooManyRequests"},
         {"status": 429, "reason": "TooManyRequests"}, {"status": 503, "reason": "ServiceUnavailable"}, {"status": 200}]
        """#
        let rig = try Rig(answers: answers)
        try rig.sink.accept(SampleUpdates.update(.start, sequence: 1))
        try rig.sink.accept(SampleUpdates.update(.end, sequence: 2))
        try rig.sink.accept(SampleUpdates.update(.start, activity: "run-2", sequence: 1))
        rig.sink.finish(grace: 10)
        let sent = rig.server.requests().map { "\(Self.aps($0)["event"] as? String ?? "?") \(Self.aps($0)["timestamp"] as? Int ?? 0)" }
        #expect(sent == ["update 1704088805", "end 1704088810"] + Array(repeating: "update 1704088805", count: 5))
        let counters = rig.sink.counters
        #expect(counters.failed == 2)
        #expect(counters.retried == 4)
        #expect(counters.sent == 1)
        #expect(rig.log.all.contains { $0.contains("APNs 400 BadExpirationDate") })
        #expect(rig.log.all.contains { $0.contains("APNs 413 PayloadTooLarge") })
    }

    @Test func aRoutineUpdateThatReplacedAnUnsentSensorLostGoesOutAtPriorityTen() throws {
        let rig = try Rig(answers: #"[{"status": 503, "reason": "ServiceUnavailable"}, {"status": 200}]"#)
        try rig.sink.accept(SampleUpdates.update(.start, sequence: 1))
        try rig.sink.accept(SampleUpdates.update(.update, sequence: 2, heartRate: nil, reason: .sensorLost))
        try rig.sink.accept(SampleUpdates.update(.update, sequence: 3, heartRate: nil, reason: .refresh))
        rig.sink.finish(grace: 10)
        let received = rig.server.requests()
        #expect(received.map { Self.aps($0)["timestamp"] as? Int } == [1_704_088_805, 1_704_088_805, 1_704_088_815])
        #expect(received.last?.header("apns-priority") == "10")
        #expect(rig.sink.counters.superseded == 1)
    }

    @Test func aPayloadOverFourKilobytesIsNotSent() throws {
        let rig = try Rig()
        // Within ActivityKit's 4 KB for attributes + state, but the whole APNs payload is larger.
        try rig.sink.accept(SampleUpdates.update(.update, sequence: 2, label: String(repeating: "x", count: 3990)))
        try rig.sink.accept(SampleUpdates.update(.end, sequence: 3))
        rig.sink.finish(grace: 10)
        #expect(rig.server.requests().map { Self.aps($0)["event"] as? String } == ["end"])
        #expect(rig.sink.counters.failed == 1)
        #expect(rig.log.all.contains { $0.contains("over the 4096 APNs takes") })
    }

    /// The engine decides the priority (its push budget may send a sensor-lost at 5); APNs sends
    /// what it decided, and only a priority-10 update is urgent in the delivery queue.
    @Test func priorityIsTheEnginesDecision() throws {
        let settings = APNsSinkSettings(baseURL: "https://127.0.0.1:1", bundleID: "com.example.hrbridge", deviceToken: Self.deviceToken)
        for (reason, priority) in [(UpdateReason.sensorLost, 10), (.sensorLost, 5), (.changed, 5)] {
            var update = SampleUpdates.update(.update, sequence: 2, reason: reason)
            update.priority = priority
            let delivery = try #require(try APNsRequest.delivery(for: update, settings: settings))
            guard let push = delivery.message as? LiveActivityPush else { Issue.record("an APNs delivery is a Live Activity push"); continue }
            #expect(push.headers.first { $0.name == "apns-priority" }?.value == String(priority), "\(reason) at \(priority)")
            #expect(delivery.urgent == (priority == 10), "\(reason) at \(priority)")
        }
    }
}
