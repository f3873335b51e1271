import Foundation
import ProcessTestSupport
import TestSupport
import Testing
@testable import CLI
@testable import Forwarding

/// The whole push-token flow with real parts: `hrbridge replay --speed` (a live session) pushing to
/// the HTTP/2 APNs test server, and the app's backend registering tokens over a real mosquitto on
/// the strap's push-token topics, as a gateway behind NAT gets them.
@Suite(.serialized, .timeLimit(.minutes(2))) struct PushTokenFlowTests {
    static let startToken = TokenRegistryTests.start
    static let tokens = ["a1", "b2", "c3", "e4"].map { TokenRegistryTests.token($0) }

    final class Rig {
        let broker: MosquittoBroker
        let files: TemporaryDirectory
        let certificates: TestCertificates
        let server: ServerProcess
        let keyPath: String
        let trace: String
        let passwordFile: String
        let topics = MQTTTopics(prefix: "hrbridge/gym", strap: "polar-h10-recording")

        init(answers: String = "[]") throws {
            broker = try MosquittoBroker()
            files = try TemporaryDirectory()
            certificates = try TestCertificates.make()
            server = try ServerProcess(script: "h2_push_server.py", arguments: [certificates.serverCertificate, certificates.serverKey, answers])
            keyPath = try TestCertificates.makeAPNsKey(in: files)
            trace = try files.write("run.trace", BundledTrace.text)
            passwordFile = try files.write("mqtt-password", MosquittoBroker.users["gateway"]! + "\n")
        }

        /// The bundled trace at 10×, from now: each start of it continues the same state file.
        func bridge() throws -> BridgeProcess {
            try BridgeProcess(["replay", "--speed", "10", "--from-now", "--state-dir", files.path("state"), "--spool", files.path("spool"),
                               "--control-bus", "none", "--sink", "stdout"] + apnsFlags + [
                               "--sink", broker.url, "--mqtt-username", "gateway", "--mqtt-password-file", passwordFile,
                               "--mqtt-gateway", "gym", "--mqtt-control", trace])
        }

        var apnsFlags: [String] {
            ["--sink", "apns", "--apns-server", "https://127.0.0.1:\(server.port)", "--ca-file", certificates.caFile,
             "--apns-key-file", keyPath, "--apns-key-id", "KEY1234567", "--apns-team-id", "TEAM123456",
             "--apns-bundle-id", "com.example.hrbridge"]
        }

        /// The backend registers `token` (for `activity`, else the strap's current one) as the app sends it.
        func register(_ token: PushToken, activity: String? = nil, issuedAt: Int? = nil, user: String = "backend") throws {
            var body = #"{"token":"\#(token.hex)""#
            if let activity { body += #","activity":"\#(activity)""# }
            if let issuedAt { body += #","issuedAt":\#(issuedAt)"# }
            try broker.publish(topics.pushToken, body + "}", user: user)
        }

        /// Waits until the bridge (the `run`-th started on this broker) has subscribed to the token
        /// topics: they follow its connect, and a registration sent before would find nobody.
        func waitForSubscription(_ bridge: BridgeProcess, run: Int = 1) -> Bool {
            broker.waitForLog(timeout: 10) { $0.components(separatedBy: topics.pushToStartToken + " (QoS 1)").count - 1 >= run }
                && bridge.process.isRunning
        }

        /// Each push as `token event`, in arrival order, with its aps.
        func pushes() -> [(token: String, event: String, aps: [String: Any])] {
            server.requests().map { request in
                let aps = APNsSinkTests.aps(request)
                let token = String(request.header(":path")?.split(separator: "/").last ?? "")
                return (PushToken(configured: token).description, aps["event"] as? String ?? "?", aps)
            }
        }

        func pushes(to token: PushToken) -> [[String: Any]] { pushes().filter { $0.token == token.description }.map(\.aps) }
    }

    static func activityIDs(_ bridge: BridgeProcess) -> [String] {
        var seen: [String] = []
        for line in bridge.outputLines {
            guard let id = (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["activity"] as? String,
                  !seen.contains(id) else { continue }
            seen.append(id)
        }
        return seen
    }

    /// push-to-start → register → rotate → 410 → register again → crash → restart: the start asks
    /// for the token, every later push goes to the newest token only, in order, nothing goes while
    /// none is usable, and the end the restarted run owes reaches the token registered before.
    @Test func pushToStartRegisterRotateUnregisteredReRegisterAndAnEndAcrossARestart() throws {
        let (first, second, third) = (Self.tokens[0], Self.tokens[1], Self.tokens[2])
        let gone = "/3/device/\(second.hex)"
        let rig = try Rig(answers: #"[{"path": "\#(gone)", "status": 200}, {"path": "\#(gone)", "status": 410, "reason": "Unregistered", "timestamp": \#(Int(Date().timeIntervalSince1970 * 1000))}]"#)
        // Retained: a gateway that connects later still gets the phone's push-to-start token.
        try rig.broker.publish(rig.topics.pushToStartToken, #"{"token":"\#(Self.startToken.hex)"}"#, user: "backend", retain: true)
        let bridge = try rig.bridge()
        #expect(bridge.wait(timeout: 20) { rig.pushes().contains { $0.event == "start" } }, "\(bridge.log)")
        let id = try #require(Self.activityIDs(bridge).first)
        let start = try #require(rig.pushes().first)
        #expect(start.token == Self.startToken.description)
        #expect(start.aps["input-push-token"] as? Int == 1)
        #expect((start.aps["attributes"] as? [String: Any])?["bridgeActivityID"] as? String == id)
        #expect(bridge.wait(timeout: 10) { bridge.log.contains("sink apns: \(id) waits: waiting for its push token") }, "\(bridge.log)")
        #expect(rig.waitForSubscription(bridge))

        let issued = Int(Date().timeIntervalSince1970)
        try rig.register(first, issuedAt: issued) // no activity named: the one awaiting its token
        #expect(bridge.wait(timeout: 10) { rig.pushes(to: first).count >= 2 }, "\(bridge.log)")
        #expect(bridge.log.contains("push-token: push token of \(id) registered"))
        try rig.register(second, activity: id, issuedAt: issued + 10)
        try rig.register(first, activity: id, issuedAt: issued + 5) // late and older: refused, the newer stays
        #expect(bridge.wait(timeout: 10) { bridge.log.contains("APNs answered 410 Unregistered for its push token \(second)") }, "\(bridge.log)")
        #expect(bridge.log.contains("issuedAt \(issued + 5) is older than the registered token's (\(issued + 10))"))
        let heldAt = rig.server.requests().count
        Thread.sleep(forTimeInterval: 1)
        #expect(rig.server.requests().count == heldAt, "nothing goes while no token is usable")
        try rig.register(third, activity: id, issuedAt: issued + 20)
        #expect(bridge.wait(timeout: 10) { !rig.pushes(to: third).isEmpty }, "\(bridge.log)")

        // Every push in order, each token's after the one before it.
        let sequence = rig.pushes().dropFirst()
        #expect(sequence.map(\.token) == sequence.map(\.token).sorted { Self.rank($0) < Self.rank($1) }, "\(sequence.map(\.token))")
        let times = sequence.compactMap { $0.aps["timestamp"] as? Int }
        #expect(times == times.sorted())
        #expect(rig.pushes(to: second).count == 2, "one taken, one answered 410")

        bridge.send(SIGKILL)
        _ = bridge.exitStatus(timeout: 10)
        let next = try rig.bridge()
        #expect(next.wait(timeout: 20) { rig.pushes(to: third).contains { $0["event"] as? String == "end" } }, "\(next.log)")
        next.send(SIGTERM)
        #expect(next.exitStatus(timeout: 20) == 143, "\(next.log)")
        #expect(next.log.contains("\(id) was left running by an earlier run; ending it"))
        let ends = rig.pushes(to: third).filter { $0["event"] as? String == "end" }
        #expect(ends.count == 1)
    }

    static func rank(_ token: String) -> Int { tokens.firstIndex { $0.description == token } ?? -1 }

    /// An activity whose token never came: its end is owed in the state file, `recover --list`
    /// shows it, and the next run sends it to the token registered then. Bad registrations on the
    /// way are refused with the reason, and lose nothing.
    @Test func anEndWhoseTokenNeverCameIsOwedListedAndSentWhenOneIsRegistered() throws {
        let rig = try Rig()
        let bridge = try rig.bridge()
        #expect(rig.waitForSubscription(bridge))
        #expect(bridge.wait(timeout: 20) { !Self.activityIDs(bridge).isEmpty }, "\(bridge.log)")
        let id = try #require(Self.activityIDs(bridge).first)
        for (body, reason) in [
            (#"{"token":"xyz"}"#, "token: expected hex digits (0-9, a-f), got another character at position 1"),
            (#"{"token":"abcd"}"#, "token: expected at least 8 bytes (16 hex digits), got 2"),
            (#"{"token":"\#(Self.tokens[3].hex)","activity":"hrbridge-19700101T000000Z-1"}"#, "no activity hrbridge-19700101T000000Z-1 on this strap"),
            (#"{"token":"#, "not JSON: line 1, column 10"),
            (#"{"token":"\#(Self.tokens[3].hex)","activty":"x"}"#, #"unknown key "activty""#),
        ] {
            try rig.broker.publish(rig.topics.pushToken, body, user: "backend")
            #expect(bridge.wait(timeout: 10) { bridge.log.contains("push-token: refused: \(reason)") }, "\(reason): \(bridge.log)")
        }
        try rig.register(Self.tokens[3], user: "dashboard") // the broker's ACL drops it
        Thread.sleep(forTimeInterval: 0.5)
        #expect(!bridge.log.contains("push token of \(id) registered"))
        #expect(bridge.log.contains("sink apns: \(id) waits: its start waits for a push-to-start token or its own push token"))
        #expect(!bridge.log.contains(Self.tokens[3].hex), "no log holds a whole token")
        bridge.send(SIGTERM)
        #expect(bridge.exitStatus(timeout: 20) == 143, "\(bridge.log)")
        #expect(bridge.log.contains("sink apns: \(id) is still owed its start and end"))
        #expect(rig.server.requests().isEmpty)

        let list = try BridgeProcess(["recover", "--list", "--state-dir", rig.files.path("state")])
        #expect(list.exitStatus(timeout: 10) == 0)
        #expect(list.output.contains(#""activity":"\#(id)","lastEvent":"end""#) && list.output.contains(#""owedTo":["apns"]"#), "\(list.output)")

        let next = try rig.bridge()
        #expect(rig.waitForSubscription(next, run: 2))
        #expect(next.wait(timeout: 10) { next.log.contains("sink apns: \(id) waits") }, "\(next.log)")
        try rig.register(Self.tokens[3], activity: id)
        #expect(next.wait(timeout: 10) { rig.pushes(to: Self.tokens[3]).contains { $0["event"] as? String == "end" } }, "\(next.log)")
        next.send(SIGTERM)
        #expect(next.exitStatus(timeout: 20) == 143, "\(next.log)")
        #expect(rig.pushes().map(\.event) == ["end"], "only the owed end: the old start is not needed by an activity with a token")
    }
}
