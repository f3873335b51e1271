import Foundation
import LiveState
import ProcessTestSupport
import Sensors
import TestSupport
import Testing
@testable import Forwarding

/// `--sink apns-background`: which updates go (a pure table), and the pushes against a real HTTP/2
/// TLS server (python3-h2) on 127.0.0.1 that records their headers.
@Suite(.timeLimit(.minutes(1))) struct BackgroundPushTests {
    static let appToken = String(repeating: "5e6f", count: 16)

    /// (seconds into the workout, event, reason, sent?) with 3 routine updates an hour: one per 20 minutes.
    static let budgetRows: [(Double, ActivityUpdate.Event, UpdateReason, Bool)] = [
        (0, .start, .start, true),
        (30, .update, .changed, true), // the first routine update of the activity
        (60, .update, .changed, false), // 20 minutes not yet passed
        (100, .update, .sensorLost, true), // a transition always goes
        (130, .update, .sensorBack, true),
        (1229, .update, .refresh, false),
        (1230, .update, .refresh, true), // 20 minutes after the last routine push
        (1500, .update, .paused, false), // pause is routine here
        (2400, .update, .label, false),
        (2430, .update, .changed, true),
        (2500, .end, .end(.stopped), true),
    ]

    @Test func aFewRoutineUpdatesAnHourBesideEveryTransition() {
        var budget = BackgroundPushBudget(routinePerHour: 3)
        let start = SampleUpdates.workoutStart
        for (seconds, event, reason, sent) in Self.budgetRows {
            var update = SampleUpdates.update(event, sequence: 1, reason: reason)
            update.timestamp = start.adding(seconds: seconds)
            let admitted = budget.admits(update)
            #expect(admitted == sent, "\(seconds) s \(reason)")
        }
        var none = BackgroundPushBudget(routinePerHour: 0)
        let routine = none.admits(SampleUpdates.update(.update, sequence: 2))
        let end = none.admits(SampleUpdates.update(.end, sequence: 3))
        #expect(!routine && end)
    }

    @Test func eachActivityHasItsOwnBudget() {
        var budget = BackgroundPushBudget(routinePerHour: 3)
        let admitted = [("a", 2), ("b", 2), ("a", 3)].map { budget.admits(SampleUpdates.update(.update, activity: $0.0, sequence: $0.1)) }
        #expect(admitted == [true, true, false])
    }

    @Test func pushesCarryTheBackgroundHeadersAndTheState() throws {
        let directory = try TemporaryDirectory()
        let certificates = try TestCertificates.make()
        let server = try ServerProcess(script: "h2_push_server.py", arguments: [certificates.serverCertificate, certificates.serverKey, "[]"])
        let key = try TestCertificates.makeAPNsKey(in: directory)
        let sink = NetworkSink.apnsBackground(
            deviceToken: Self.appToken, bundleID: "com.example.hrbridge", baseURL: "https://127.0.0.1:\(server.port)",
            tokens: ProviderTokenSource(key: try SigningKey(contentsOfFile: key), keyID: "KEY1234567", teamID: "TEAM123456"),
            payloadKey: "workout", budget: BackgroundPushBudget(routinePerHour: 3),
            http: HTTPClientConfiguration(certificateAuthorityFile: certificates.caFile), settings: FastDelivery.settings,
            spoolDirectory: nil, log: LogLines().sink)
        let updates = [
            SampleUpdates.update(.start, sequence: 1),
            SampleUpdates.update(.update, sequence: 2, heartRate: 130),
            SampleUpdates.update(.update, sequence: 3, heartRate: 131), // 5 s later: over the budget, left out
            SampleUpdates.update(.update, sequence: 4, heartRate: nil, reason: .sensorLost),
            SampleUpdates.update(.end, sequence: 5),
        ]
        // One at a time: an update still waiting would be superseded by the next (latest state wins).
        // The one over the budget is never queued: once nothing waits, the next may follow (if it
        // had been queued, it would wait or go out, and `received` below would show it).
        for update in updates {
            let before = server.requests().count
            try sink.accept(update)
            _ = eventually(within: 5) { server.requests().count > before || (update.sequence == 3 && sink.waitingCount == 0) }
        }
        sink.finish(grace: 5)

        let received = server.requests()
        #expect(received.map { $0.jsonBody?["sequence"] as? Int } == [1, 2, 4, 5])
        for (request, update) in zip(received, [updates[0], updates[1], updates[3], updates[4]]) {
            #expect(request.alpn == "h2" && request.header(":path") == "/3/device/\(Self.appToken)")
            #expect(request.header("apns-push-type") == "background")
            #expect(request.header("apns-priority") == "5", "never 10, even for sensor-lost")
            #expect(request.header("apns-topic") == "com.example.hrbridge")
            #expect(request.header("apns-collapse-id") == "run-1")
            #expect(request.header("apns-expiration") == String(update.staleDate.microsecondsSinceUnixEpoch / 1_000_000))
            #expect(request.header("authorization")?.hasPrefix("bearer ") == true)
            let body = try #require(request.jsonBody)
            #expect(NSDictionary(dictionary: body["aps"] as? [String: Any] ?? [:]) == ["content-available": 1])
            #expect(body["activity"] as? String == "run-1" && body["event"] as? String == update.event.rawValue)
            #expect(body["staleDate"] as? Int64 == update.staleDate.microsecondsSinceUnixEpoch / 1_000_000)
            let line = try JSONSerialization.jsonObject(with: Data(try UpdateLine.encode(update))) as! [String: Any]
            #expect(NSDictionary(dictionary: body["workout"] as? [String: Any] ?? [:]) == NSDictionary(dictionary: line["contentState"] as! [String: Any]))
        }
        #expect(received.last?.jsonBody?["dismissalDate"] != nil)
    }

    /// `replay --sink apns-background`: the bundled 64-minute run reaches the push server as its
    /// start, its end and at most 3 routine pushes an hour, all at priority 5.
    @Test func aReplayedWorkoutWakesTheAppAFewTimesAnHour() throws {
        let directory = try TemporaryDirectory()
        let certificates = try TestCertificates.make()
        let server = try ServerProcess(script: "h2_push_server.py", arguments: [certificates.serverCertificate, certificates.serverKey, "[]"])
        let key = try TestCertificates.makeAPNsKey(in: directory)
        let token = try directory.write("app-token", Self.appToken + "\n")
        let result = ReplaySinkTests.replay(["--sink", "apns-background", "--apns-server", "https://127.0.0.1:\(server.port)",
                                             "--ca-file", certificates.caFile, "--apns-key-file", key, "--apns-key-id", "KEY1234567",
                                             "--apns-team-id", "TEAM123456", "--apns-bundle-id", "com.example.hrbridge",
                                             "--background-device-token-file", token, "--spool", directory.path("spool")])
        #expect(result.status == .success, "\(result.log)")
        let events = server.requests().compactMap { $0.jsonBody?["event"] as? String }
        #expect(events.first == "start" && events.last == "end")
        // 64 minutes: routine pushes at most one per 20 minutes, so 4 at most (0, 20, 40, 60 min).
        #expect((1...4).contains(events.filter { $0 == "update" }.count), "\(events)")
        #expect(server.requests().allSatisfy { $0.header("apns-priority") == "5" && $0.header("apns-push-type") == "background" })
    }
}
