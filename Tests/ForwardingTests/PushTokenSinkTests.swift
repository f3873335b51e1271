import Foundation
import LiveState
import ProcessTestSupport
import Sensors
import TestSupport
import Testing
@testable import Forwarding

/// The APNs sink with tokens registered at run time (a `PushTokenBook`), against the real HTTP/2
/// TLS push server: what waits for a token, what a registration, a rotation and a 410 do, what is
/// owed at exit, and what the phone's own decoder makes of a push-to-start's attributes.
@Suite(.timeLimit(.minutes(1))) struct PushTokenSinkTests {
    static let startToken = TokenRegistryTests.start
    static let first = TokenRegistryTests.a
    static let second = TokenRegistryTests.b

    final class Rig {
        let directory: TemporaryDirectory
        let certificates: TestCertificates
        let server: ServerProcess
        let book: PushTokenBook
        let log = LogLines()
        let key: SigningKey
        private(set) var sink: NetworkSink!

        init(answers: String = "[]", book: PushTokenBook = PushTokenBook(), settings: APNsSinkSettings? = nil) throws {
            directory = try TemporaryDirectory()
            certificates = try TestCertificates.make()
            server = try ServerProcess(script: "h2_push_server.py", arguments: [certificates.serverCertificate, certificates.serverKey, answers])
            key = try SigningKey(contentsOfFile: try TestCertificates.makeAPNsKey(in: directory))
            self.book = book
            sink = makeSink(settings)
        }

        private func tokens() -> ProviderTokenSource { ProviderTokenSource(key: key, keyID: "KEY1234567", teamID: "TEAM123456") }

        /// A sink on the same server and book: the next run's.
        func makeSink(_ settings: APNsSinkSettings? = nil) -> NetworkSink {
            .apns(settings: settings ?? APNsSinkSettings(baseURL: "https://127.0.0.1:\(server.port)", bundleID: "com.example.hrbridge"),
                  tokens: tokens(), pushTokens: book, http: HTTPClientConfiguration(certificateAuthorityFile: certificates.caFile),
                  settings: FastDelivery.settings, spoolDirectory: nil, log: log.sink)
        }

        func register(_ token: PushToken, for target: TokenRegistry.Target, issuedAt: Int64? = nil) throws {
            _ = try book.register(token, issuedAt: issuedAt, for: target, at: WallClock.unixSeconds())
        }

        /// `token(event heartRate)` of each push received, in order.
        func pushes() -> [String] {
            server.requests().map { request in
                let aps = APNsSinkTests.aps(request)
                let token = PushToken(configured: String(request.header(":path")?.split(separator: "/").last ?? ""))
                let rate = (aps["content-state"] as? [String: Any])?["heartRate"] as? Int
                return "\(token) \(aps["event"] as? String ?? "?") \(rate.map(String.init) ?? "-")"
            }
        }
    }

    /// The whole life at the push server: the start is a push-to-start asking for the token; the
    /// updates wait for it (newer content replacing older); once registered, what was owed goes to
    /// it, the newest content first, then the rest in order and the end.
    @Test func pushToStartThenTheRegisteredTokenGetsWhatWasOwed() throws {
        let rig = try Rig()
        try rig.register(Self.startToken, for: .pushToStart)
        let updates = SampleUpdates.activity(count: 8)
        try rig.sink.accept(updates[0])
        #expect(eventually { rig.server.requests().count == 1 })
        for update in updates[1...3] { try rig.sink.accept(update) }
        #expect(eventually { rig.log.all.contains { $0.contains("run-1 waits: waiting for its push token (the push-to-start went out at") } },
                "\(rig.log.all)")
        #expect(rig.book.status(of: "run-1") == .pending)
        try rig.register(Self.first, for: .activity("run-1"))
        #expect(eventually { rig.server.requests().count == 2 })
        for update in updates[4...] {
            try rig.sink.accept(update)
            #expect(eventually { rig.server.requests().last.map { APNsSinkTests.aps($0)["timestamp"] as? Int } == Int(update.timestamp.unixSeconds) })
        }
        rig.sink.finish(grace: 5)
        #expect(rig.pushes() == ["5d5d5d5d… start 99", "a1a1a1a1… update 102", "a1a1a1a1… update 103", "a1a1a1a1… update 104",
                                 "a1a1a1a1… update 105", "a1a1a1a1… end 106"])
        let start = APNsSinkTests.aps(rig.server.requests()[0])
        #expect(start["input-push-token"] as? Int == 1)
        #expect(start["attributes-type"] as? String == "WorkoutActivityAttributes")
        #expect(start["attributes"] as? [String: String] == ["workoutName": "Morning run", "bridgeActivityID": "run-1"])
        #expect(rig.sink.counters.superseded == 2)
        #expect(rig.book.snapshot.activity("run-1") == nil, "the end went out: the activity and its token are forgotten")
    }

    /// While the first activity's token is pending, the strap's next activity is not push-started
    /// (a second card would stack on the Lock Screen); its start goes once that token comes.
    @Test func noSecondPushToStartWhileAnActivitysTokenIsPending() throws {
        let rig = try Rig()
        try rig.register(Self.startToken, for: .pushToStart)
        try rig.sink.accept(SampleUpdates.update(.start, activity: "run-1", sequence: 1))
        #expect(eventually { rig.book.status(of: "run-1") == .pending })
        try rig.sink.accept(SampleUpdates.update(.start, activity: "run-2", sequence: 1, heartRate: 130))
        #expect(eventually { rig.log.all.contains { $0.contains("run-2 waits: its push-to-start waits: run-1 was started by one at") } },
                "\(rig.log.all)")
        Thread.sleep(forTimeInterval: 0.2)
        #expect(rig.pushes() == ["5d5d5d5d… start 120"])
        try rig.register(Self.first, for: .activity("run-1"))
        rig.sink.finish(grace: 5)
        #expect(rig.pushes() == ["5d5d5d5d… start 120", "5d5d5d5d… start 130"])
        #expect(rig.book.status(of: "run-2") == .pending)
    }

    /// A rotation: later pushes go to the new token only.
    @Test func aRotatedTokenTakesEveryLaterPush() throws {
        let rig = try Rig()
        try rig.register(Self.first, for: .activity("run-1"), issuedAt: 100)
        let updates = SampleUpdates.activity(count: 4)
        for update in updates[0...1] {
            try rig.sink.accept(update)
            #expect(eventually { rig.server.requests().count == update.sequence })
        }
        try rig.register(Self.second, for: .activity("run-1"), issuedAt: 200)
        #expect(throws: PushTokenBook.Failure.self) { try rig.register(Self.first, for: .activity("run-1"), issuedAt: 150) }
        for update in updates[2...] { try rig.sink.accept(update) }
        rig.sink.finish(grace: 5)
        #expect(rig.pushes() == ["a1a1a1a1… update 99", "a1a1a1a1… update 100", "b2b2b2b2… update 101", "b2b2b2b2… end 102"])
    }

    /// A 410: that token's pushes wait, none is lost, and a new registration releases them; the
    /// 410's own timestamp is when the token died.
    @Test func a410HoldsPushesUntilANewRegistration() throws {
        let gone = "/3/device/\(Self.first.hex)"
        let rig = try Rig(answers: #"[{"path": "\#(gone)", "status": 200}, {"path": "\#(gone)", "status": 410, "reason": "Unregistered", "timestamp": 1700000000000}]"#)
        try rig.register(Self.first, for: .activity("run-1"))
        let updates = SampleUpdates.activity(count: 5)
        try rig.sink.accept(updates[0])
        try rig.sink.accept(updates[1])
        #expect(eventually { rig.log.all.contains { $0.contains("APNs answered 410 Unregistered for its push token a1a1a1a1… at 1700000000") } },
                "\(rig.log.all)")
        #expect(rig.book.status(of: "run-1") == .unregistered)
        #expect(throws: PushTokenBook.Failure.refused(.unregisteredByAPNs(at: 1_700_000_000))) {
            try rig.register(Self.first, for: .activity("run-1"))
        }
        for update in updates[2...] { try rig.sink.accept(update) }
        Thread.sleep(forTimeInterval: 0.2)
        #expect(rig.server.requests().count == 2, "nothing goes while it waits")
        try rig.register(Self.second, for: .activity("run-1"))
        rig.sink.finish(grace: 5)
        #expect(rig.pushes() == ["a1a1a1a1… update 99", "a1a1a1a1… update 100", "b2b2b2b2… update 102", "b2b2b2b2… end 103"])
        #expect(rig.sink.counters.failed == 0)
    }

    /// An end whose token never came is neither sent nor spooled: it is owed (the state file keeps
    /// it). The next run sends it when a token comes, or drops it, said, once its dismissal date passed.
    @Test func anEndWithoutATokenIsOwedThenSentOrDroppedByTheNextRun() throws {
        let rig = try Rig()
        for update in Self.endingNow(SampleUpdates.activity(count: 3)) { try rig.sink.accept(update) }
        rig.sink.finish(grace: 1)
        #expect(rig.sink.owedActivities == ["run-1"])
        #expect(rig.sink.counters.held == 2 && rig.sink.counters.spooled == 0)
        #expect(rig.log.all.contains { $0.contains("run-1 is still owed its start and end (its start waits for a push-to-start token") }, "\(rig.log.all)")

        var end = SampleUpdates.update(.end, sequence: 3)
        end.dismissalDate = WallClock.now().adding(seconds: 600)
        let next = rig.makeSink()
        try next.accept(end)
        try rig.register(Self.first, for: .activity("run-1"))
        next.finish(grace: 5)
        #expect(rig.pushes() == ["a1a1a1a1… end 120"])
        #expect(next.owedActivities.isEmpty)

        var late = SampleUpdates.update(.end, activity: "run-2", sequence: 3)
        late.dismissalDate = WallClock.now().adding(seconds: 1)
        let third = rig.makeSink()
        try third.accept(late)
        #expect(eventually(within: 5) { rig.log.all.contains { $0.contains("run-2#3 (end) refused, dropped: its end's dismissal date") } },
                "\(rig.log.all)")
        third.finish(grace: 1)
        #expect(third.owedActivities.isEmpty)
        #expect(rig.server.requests().count == 1)
    }

    /// While the Live Activity waits for its token, the background sink wakes the app to update its
    /// own activity: it neither waits for nor knows about Live Activity tokens.
    @Test func aBackgroundSinkBesideItKeepsTheAppUpdated() throws {
        let rig = try Rig()
        let background = NetworkSink.apnsBackground(
            deviceToken: BackgroundPushTests.appToken, bundleID: "com.example.hrbridge", baseURL: "https://127.0.0.1:\(rig.server.port)",
            tokens: ProviderTokenSource(key: rig.key, keyID: "KEY1234567", teamID: "TEAM123456"), payloadKey: "workout",
            budget: BackgroundPushBudget(routinePerHour: 60), http: HTTPClientConfiguration(certificateAuthorityFile: rig.certificates.caFile),
            settings: FastDelivery.settings, spoolDirectory: nil, log: rig.log.sink)
        for update in Self.endingNow(SampleUpdates.activity(count: 4)) {
            try rig.sink.accept(update)
            try background.accept(update)
        }
        background.finish(grace: 5)
        rig.sink.finish(grace: 1)
        let received = rig.server.requests()
        #expect(received.count >= 3, "the start, a routine update within the budget, the end")
        #expect(received.allSatisfy { $0.header("apns-push-type") == "background" && $0.header(":path") == "/3/device/\(BackgroundPushTests.appToken)" })
        #expect(rig.sink.owedActivities == ["run-1"])
    }

    /// `updates` with the end's dismissal date ten minutes from now (the samples are from 2024: their
    /// dismissal has long passed, and an end waiting for a token would be dropped at once).
    static func endingNow(_ updates: [ActivityUpdate]) -> [ActivityUpdate] {
        updates.map { update in
            var update = update
            if update.event == .end { update.dismissalDate = WallClock.now().adding(seconds: 600) }
            return update
        }
    }

    /// The phone decodes a push-to-start's attributes with a plain decoder into its own struct: one
    /// that declares the activity id key reads it, one that does not (the seed's) ignores it.
    @Test func thePhoneDecodesTheAttributesWithAndWithoutTheActivityIDKey() throws {
        struct SeedAttributes: Decodable { var workoutName: String }
        struct AttributesWithID: Decodable { var workoutName: String; var bridgeActivityID: String }
        let update = SampleUpdates.update(.start, activity: "hrbridge-20240101T060000Z-1", sequence: 1, workoutName: "Tempo")
        for (key, expected) in [(APNsSinkSettings.defaultActivityIDAttribute, #"{"bridgeActivityID":"hrbridge-20240101T060000Z-1","workoutName":"Tempo"}"#),
                                (nil, #"{"workoutName":"Tempo"}"#)] as [(String?, String)] {
            let settings = APNsSinkSettings(bundleID: "com.example.hrbridge", activityIDAttribute: key)
            let body = try APNsPayload(update: update, pushToStart: true, settings: settings).encoded()
            let aps = try #require(try JSONSerialization.jsonObject(with: Data(body)) as? [String: [String: Any]])["aps"]
            let attributes = try JSONSerialization.data(withJSONObject: try #require(aps?["attributes"]), options: .sortedKeys)
            #expect(String(decoding: attributes, as: UTF8.self) == expected)
            #expect(try JSONDecoder().decode(SeedAttributes.self, from: attributes).workoutName == "Tempo")
            if key != nil { #expect(try JSONDecoder().decode(AttributesWithID.self, from: attributes).bridgeActivityID == update.activityID) }
            #expect(aps?["input-push-token"] as? Int == 1)
        }
    }
}
