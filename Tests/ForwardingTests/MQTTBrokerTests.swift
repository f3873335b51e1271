import Foundation
import LiveState
import ProcessTestSupport
import TestSupport
import Testing
@testable import CLI
@testable import Forwarding
import SinkVocabulary

/// `hrbridge replay --sink mqtt…` against a real mosquitto (password file, ACL, TLS listener), with
/// mosquitto_sub as the independent dashboard that shows each message's retain flag, QoS and expiry.
@Suite(.serialized, .timeLimit(.minutes(1))) struct MQTTBrokerTests {
    let broker: MosquittoBroker
    let files: TemporaryDirectory
    let passwordFile: String

    init() throws {
        broker = try MosquittoBroker()
        files = try TemporaryDirectory()
        passwordFile = try files.write("mqtt-password", MosquittoBroker.users["gateway"]! + "\n")
    }

    /// The bundled trace recorded by a strap named `strap` (its header's name): each is its own topic.
    func trace(strap: String) throws -> String {
        let text = BundledTrace.text
        let renamed = text.replacingOccurrences(of: "name=Polar%20H10%20(recording)", with: "name=" + strap.replacingOccurrences(of: " ", with: "%20"))
        #expect(renamed != text)
        return try files.write(strap + ".trace", renamed)
    }

    func gatewayFlags(tls: Bool = false) -> [String] {
        ["--sink", tls ? broker.tlsURL : broker.url, "--mqtt-username", "gateway", "--mqtt-password-file", passwordFile,
         "--mqtt-gateway", "gym", "--spool", files.path("spool")]
            + (tls ? ["--mqtt-ca-file", broker.certificates.caFile] : [])
    }

    static func replay(_ arguments: [String]) -> (status: ExitCode, output: [String], log: String) {
        let console = Console(output: .memory(), log: .memory(), input: { [] })
        let status = HRBridge.run(["replay", "--fast", "--from-now"] + arguments, console: console)
        return (status, console.output.text.split(separator: "\n").map(String.init), console.log.text)
    }

    @Test func topicsPayloadsRetainFlagsAndQoSAndALateDashboardSeesEveryStrap() throws {
        let live = try MQTTSubscriber(broker)
        let first = Self.replay(gatewayFlags(tls: true) + ["--sink", "stdout", "--dismissal", "600", try trace(strap: "Strap A")])
        #expect(first.status == .success, "\(first.log)")
        #expect(!first.log.contains(MosquittoBroker.users["gateway"]!), "the password stays out of the log")
        let second = Self.replay(gatewayFlags() + ["--sink", "stdout", "--dismissal", "600", try trace(strap: "Strap B")])
        #expect(second.status == .success, "\(second.log)")
        // A clean exit's goodbye is no lost connection.
        #expect(!first.log.contains("connection lost") && !second.log.contains("connection lost"), "\(first.log)\n\(second.log)")
        // Each run's last message is its offline status, sent once every update was acknowledged; the
        // dashboard may still be printing the rest on a loaded machine.
        #expect(live.wait(timeout: 10) { $0.filter { $0.topic == "hrbridge/gym/status" }.count == 4 })

        for (strap, run) in [("strap-a", first), ("strap-b", second)] {
            let states = live.messages(on: "hrbridge/gym/\(strap)/state")
            let updates = live.messages(on: "hrbridge/gym/\(strap)/updates")
            // However fast the replay, a reachable broker gets every update, in order, once, as printed.
            let everyUpdate = updates.map(\.payload) == run.output
            #expect(everyUpdate, "received \(updates.compactMap { Self.sequence(of: $0.payload) }) of \(run.output.count); its log: \(run.log)")
            #expect(states.map(\.payload) == updates.map(\.payload), "each update goes to both topics")
            #expect(states.allSatisfy { $0.retained && $0.qos == 1 })
            #expect(updates.allSatisfy { !$0.retained && $0.qos == 1 })
            // MQTT 5 expiry: an update at its stale window (120 s), the ended state at its dismissal delay.
            #expect(updates.allSatisfy { ($0.expiry ?? 0) > 100 && ($0.expiry ?? 0) <= 120 }, "\(updates.map(\.expiry))")
            #expect(states.dropLast().allSatisfy { $0.expiry == nil })
            #expect((states.last?.expiry ?? 0) > 590)
        }
        let status = live.messages(on: "hrbridge/gym/status")
        #expect(status.map(\.payload) == ["online", "offline", "online", "offline"])
        #expect(status.allSatisfy { $0.retained && $0.qos == 1 })

        let late = try MQTTSubscriber(broker, topics: ["hrbridge/gym/+/state", "hrbridge/gym/status"])
        #expect(late.wait(timeout: 5) { $0.count == 3 })
        #expect(late.messages(on: "hrbridge/gym/strap-a/state").map(\.payload) == [first.output.last!])
        #expect(late.messages(on: "hrbridge/gym/strap-b/state").map(\.payload) == [second.output.last!])
        #expect(late.messages.allSatisfy { $0.retained })
        #expect(late.messages(on: "hrbridge/gym/status").map(\.payload) == ["offline"])
    }

    /// A broker that refuses MQTT 5 gets MQTT 3.1.1: the same topics, QoS and retain flags, no expiry.
    @Test func aBrokerWithoutMQTT5GetsMQTT311() throws {
        let old = try ServerProcess(script: "mqtt311_broker.py", arguments: [])
        let run = Self.replay(["--sink", "mqtt://127.0.0.1:\(old.port)", "--mqtt-gateway", "gym", "--spool", files.path("spool"),
                               "--sink", "stdout", try trace(strap: "Strap K")])
        #expect(run.status == .success, "\(run.log)")
        #expect(run.log.contains("using MQTT 3.1.1") && run.log.contains("connected (MQTT 3.1.1)"), "\(run.log)")
        let events = try String(contentsOfFile: old.logPath, encoding: .utf8).split(separator: "\n").compactMap {
            try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
        #expect(events.compactMap { $0["connect"] as? Int }.prefix(2) == [5, 4], "MQTT 5 first, then 3.1.1")
        let updates = events.filter { $0["topic"] as? String == "hrbridge/gym/strap-k/updates" }
        #expect(updates.first?["payload"] as? String == run.output.first)
        #expect(updates.last?["payload"] as? String == run.output.last)
        #expect(updates.allSatisfy { $0["qos"] as? Int == 1 && $0["retain"] as? Bool == false })
        let states = events.filter { $0["topic"] as? String == "hrbridge/gym/strap-k/state" }
        #expect(!states.isEmpty && states.allSatisfy { $0["qos"] as? Int == 1 && $0["retain"] as? Bool == true })
    }

    /// Settings the broker can never accept stop the sink with the fix, its start and end spooled.
    @Test func aWrongPasswordOrAnUntrustedBrokerHaltsTheSinkAndSpools() throws {
        let otherCA = try TestCertificates.make()
        let wrongPassword = try files.write("wrong-password", "guess\n")
        for (flags, says) in [
            (gatewayFlags(tls: true).map { $0 == broker.certificates.caFile ? otherCA.caFile : $0 }, "certificate verify failed"),
            (gatewayFlags().map { $0 == passwordFile ? wrongPassword : $0 }, "refused the connection"),
        ] {
            let run = Self.replay(flags + ["--sink-grace", "1", try trace(strap: "Strap J")])
            #expect(run.status == .success, "\(run.log)")
            #expect(run.log.contains(says), "\(run.log)")
            #expect(run.log.contains("nothing more is sent to it this run"), "\(run.log)")
            #expect(run.log.contains("2 undelivered lifecycle steps spooled"), "\(run.log)")
            try FileManager.default.removeItem(atPath: files.path("spool"))
        }
    }

    /// The ended activity's state leaves the broker when its dismissal delay is over (MQTT 5 expiry:
    /// the process is gone by then).
    @Test func anEndedStateExpiresAtItsDismissal() throws {
        let run = Self.replay(gatewayFlags() + ["--dismissal", "1", try trace(strap: "Strap C")])
        #expect(run.status == .success, "\(run.log)")
        Thread.sleep(forTimeInterval: 1.5)
        let late = try MQTTSubscriber(broker, topics: ["hrbridge/gym/+/state", "hrbridge/gym/status"])
        #expect(late.wait(timeout: 5) { !$0.isEmpty })
        Thread.sleep(forTimeInterval: 0.3)
        #expect(late.messages(on: "hrbridge/gym/strap-c/state").isEmpty)
        #expect(late.messages(on: "hrbridge/gym/status").map(\.payload) == ["offline"])
    }

    @Test func brokerKilledAndRestartedMidRunGetsTheStartTheEndInOrderAndTheNewestState() throws {
        let before = try MQTTSubscriber(broker)
        let bridge = try BridgeProcess(["replay", "--speed", "400", "--from-now", "--sink", "stdout"] + gatewayFlags()
            + ["--dismissal", "600", try trace(strap: "Strap D")])
        let updatesTopic = "hrbridge/gym/strap-d/updates"
        #expect(before.wait(timeout: 10) { $0.filter { $0.topic == updatesTopic }.count >= 3 }, "\(bridge.log)")
        broker.kill()
        before.stop() // mosquitto_sub would reconnect by itself; `after` takes over
        Thread.sleep(forTimeInterval: 1.5)
        try broker.start()
        let after = try MQTTSubscriber(broker)
        #expect(bridge.exitStatus(timeout: 40) == 0, "\(bridge.log)")
        let printed = bridge.outputLines
        // The bridge has its PUBACK when it exits; the subscriber may still be receiving it.
        #expect(after.wait(timeout: 10) { $0.last { $0.topic == updatesTopic }?.payload == printed.last }, "the end")
        let received = before.messages(on: updatesTopic) + after.messages(on: updatesTopic)
        #expect(received.first?.payload == printed.first, "the start")
        #expect(received.last?.payload == printed.last, "the end, after the broker came back")
        #expect(received.allSatisfy { printed.contains($0.payload) })
        let sequences = received.compactMap { Self.sequence(of: $0.payload) }
        #expect(sequences == sequences.sorted(), "in order (a repeat after a lost acknowledgement is allowed)")
        #expect(bridge.log.contains("connection lost"))
        let counters = bridge.log.split(separator: "\n").first { $0.contains("sink \(broker.url) done:") } ?? ""
        #expect(counters.contains("retried") && !counters.contains("superseded 0,"), "updates waiting for the broker were superseded: \(counters)")
        let late = try MQTTSubscriber(broker, topics: ["hrbridge/gym/strap-d/state"])
        #expect(late.wait(timeout: 5) { $0.count == 1 })
        #expect(late.messages.first?.payload == printed.last, "the newest state is retained")
    }

    @Test func anEndTheBrokerMissedIsSpooledAndDeliveredFirstByTheNextRun() throws {
        let before = try MQTTSubscriber(broker)
        let trace = try trace(strap: "Strap E")
        let bridge = try BridgeProcess(["replay", "--speed", "400", "--from-now", "--sink", "stdout", "--sink-grace", "1"] + gatewayFlags()
            + [trace])
        let updatesTopic = "hrbridge/gym/strap-e/updates"
        #expect(before.wait(timeout: 10) { !$0.filter { $0.topic == updatesTopic }.isEmpty }, "\(bridge.log)")
        broker.kill()
        #expect(bridge.exitStatus(timeout: 40) == 0, "\(bridge.log)")
        #expect(bridge.log.contains("1 undelivered lifecycle steps spooled"), "\(bridge.log)")
        try broker.start()
        let after = try MQTTSubscriber(broker)
        let next = Self.replay(gatewayFlags() + ["--sink", "stdout", trace])
        #expect(next.status == .success, "\(next.log)")
        // The bridge has its PUBACK when it exits; the subscriber may still be receiving it.
        #expect(after.wait(timeout: 10) { $0.last { $0.topic == updatesTopic }?.payload == next.output.last }, "the second run's end")
        let received = after.messages(on: updatesTopic).map(\.payload)
        #expect(received.first == bridge.outputLines.last, "the first run's end, first")
        #expect(received.dropFirst().first == next.output.first, "then the second run's start")
        #expect(received.last == next.output.last)
    }

    /// Every orderly exit says goodbye: DISCONNECT in the broker's log and one `offline`, never the
    /// last will (a second `offline`, which monitoring reads as a crash). The process used to exit
    /// while the sink's thread was still saying goodbye: a race, so each way out is tried repeatedly.
    @Test func everyOrderlyExitDisconnectsAndSaysOfflineOnceWithoutTheWill() throws {
        let dashboard = try MQTTSubscriber(broker, topics: ["hrbridge/gym/status"])
        let trace = try trace(strap: "Strap H")
        let client = "hrbridge-gym-strap-h"
        var exits = 0
        func expectGoodbye(_ bridge: BridgeProcess, status: Int32, _ how: String) throws {
            #expect(bridge.exitStatus(timeout: 20) == status, "\(how): \(bridge.log)")
            exits += 1
            try #require(broker.waitForLog(timeout: 5) { $0.components(separatedBy: "Received DISCONNECT from \(client)\n").count - 1 == exits },
                         "\(how): exit \(exits) without DISCONNECT")
            try #require(dashboard.wait(timeout: 5) { $0.count == 2 * exits }, "\(how): \(dashboard.messages.map(\.payload))")
        }
        for _ in 1...10 {
            try expectGoodbye(try BridgeProcess(["replay", "--fast", "--from-now"] + gatewayFlags() + [trace]), status: 0, "--fast")
        }
        for _ in 1...2 {
            try expectGoodbye(try BridgeProcess(["replay", "--speed", "4000", "--from-now"] + gatewayFlags() + [trace]), status: 0, "paced")
        }
        for (signal, status) in [(SIGINT, Int32(130)), (SIGTERM, 143), (SIGINT, 130), (SIGTERM, 143)] {
            let bridge = try BridgeProcess(["replay", "--speed", "5", "--from-now"] + gatewayFlags() + [trace])
            #expect(dashboard.wait(timeout: 10) { $0.count == 2 * exits + 1 }, "\(bridge.log)")
            #expect(broker.waitForLog(timeout: 5) { $0.contains("Received PUBLISH from \(client)") })
            bridge.send(signal)
            try expectGoodbye(bridge, status: status, "signal \(signal)")
        }
        Thread.sleep(forTimeInterval: 0.5) // a will would come at once
        #expect(dashboard.messages.map(\.payload) == Array(repeating: ["online", "offline"], count: exits).flatMap { $0 })
        #expect(!broker.log.contains("\(client) closed its connection"), "the broker saw a connection end without DISCONNECT")
    }

    @Test func theLastWillSaysOfflineWhenTheBridgeIsKilledAndDiscoveryAnnouncesTheStrap() throws {
        let dashboard = try MQTTSubscriber(broker)
        let bridge = try BridgeProcess(["replay", "--speed", "5", "--from-now"] + gatewayFlags()
            + ["--mqtt-keep-alive", "5", "--mqtt-discovery", try trace(strap: "Strap F")])
        #expect(dashboard.wait(timeout: 10) { $0.contains { $0.topic == "hrbridge/gym/strap-f/state" } }, "\(bridge.log)")
        #expect(dashboard.messages(on: "hrbridge/gym/status").map(\.payload) == ["online"])
        // Home Assistant's discovery: retained, so Home Assistant finds the device whenever it starts.
        let discovery = dashboard.messages.filter { $0.topic.hasPrefix("homeassistant/sensor/hrbridge-gym/strap-f_") }
        #expect(discovery.map(\.topic).sorted() == ["homeassistant/sensor/hrbridge-gym/strap-f_distance/config",
                                                     "homeassistant/sensor/hrbridge-gym/strap-f_heart_rate/config"])
        #expect(discovery.allSatisfy { $0.retained && $0.qos == 1 && $0.payload.contains(#""availability_topic":"hrbridge/gym/status""#) })
        bridge.send(SIGKILL)
        #expect(dashboard.wait(timeout: 10) { $0.filter { $0.topic == "hrbridge/gym/status" }.count == 2 })
        let status = dashboard.messages(on: "hrbridge/gym/status")
        #expect(status.last == ReceivedMessage(retained: true, qos: 1, expiry: nil, topic: "hrbridge/gym/status", payload: "offline"))
    }

    /// The control topic pauses and labels the activity through the session, as `hrbridge ctl` does;
    /// a client the ACL does not let write there changes nothing.
    @Test func controlMessagesPauseLabelAndEndOnlyFromClientsTheACLAllows() throws {
        let dashboard = try MQTTSubscriber(broker)
        let bridge = try BridgeProcess(["replay", "--speed", "20", "--from-now", "--mqtt-control"] + gatewayFlags() + [try trace(strap: "Strap G")])
        let state = "hrbridge/gym/strap-g/state"
        let control = "hrbridge/gym/strap-g/control"
        #expect(dashboard.wait(timeout: 10) { $0.contains { $0.topic == state } }, "\(bridge.log)")
        Thread.sleep(forTimeInterval: 0.3) // the subscription to the control topic follows the connect
        try broker.publish(control, "label Sneaky", user: "dashboard")
        try broker.publish(control, "pause", user: "dashboard")
        try broker.publish(control, "label Intervals", user: "coach")
        #expect(dashboard.wait(timeout: 10) { $0.contains { $0.topic == state && $0.payload.contains(#""reason":"label""#) } }, "\(bridge.log)")
        try broker.publish(control, "pause", user: "coach")
        #expect(dashboard.wait(timeout: 10) { $0.contains { $0.topic == state && $0.payload.contains(#""reason":"paused""#) } }, "\(bridge.log)")
        try broker.publish(control, "end", user: "coach")
        #expect(bridge.exitStatus(timeout: 20) == 0, "\(bridge.log)")
        #expect(dashboard.wait(timeout: 10) { $0.contains { $0.topic == state && $0.payload.contains(#""event":"end""#) } }, "the end")
        let states = dashboard.messages(on: state).map(\.payload)
        #expect(!states.contains { $0.contains("Sneaky") }, "the dashboard may not control")
        let reasons = states.compactMap { Self.field("reason", of: $0) }
        #expect(reasons.filter { $0 == "paused" }.count == 1, "only the coach's pause: \(reasons)")
        #expect(states.last.map { $0.contains(#""event":"end""#) && $0.contains(#""intervalLabel":"Intervals""#) } == true)
    }

    /// While the process runs, an ended activity's state is replaced by an empty retained message when
    /// its dismissal delay is over, unless the strap's next activity has published its state meanwhile.
    @Test func anEndedStateIsClearedAtItsDismissalUnlessANewerActivityTookTheTopic() throws {
        let dashboard = try MQTTSubscriber(broker)
        let sink = try NetworkSink.mqtt(
            settings: MQTTSinkSettings(broker: try #require(MQTTBroker(url: broker.url)), clientID: "clear-test", username: "gateway",
                                       topics: MQTTTopics(prefix: "hrbridge/gym", strap: "strap-i")),
            password: MosquittoBroker.users["gateway"], control: SinkControlRelay(), spoolDirectory: nil, log: { _ in })
        defer { sink.finish(grace: 2) }
        func ended(_ activity: String) -> ActivityUpdate {
            var end = SampleUpdates.update(.end, activity: activity, sequence: 2)
            end.dismissalDate = end.timestamp.adding(seconds: 0.5)
            return end
        }
        let state = "hrbridge/gym/strap-i/state"
        try sink.accept(SampleUpdates.update(.start, activity: "run-1", sequence: 1))
        try sink.accept(ended("run-1"))
        #expect(dashboard.wait(timeout: 10) { $0.filter { $0.topic == state }.count == 3 })
        #expect(dashboard.messages(on: state).last.map { $0.payload.isEmpty && $0.retained } == true, "cleared")

        try sink.accept(ended("run-2")) // an end published…
        try sink.accept(SampleUpdates.update(.start, activity: "run-3", sequence: 1)) // …and overtaken at once
        #expect(dashboard.wait(timeout: 10) { $0.filter { $0.topic == state }.count == 5 })
        Thread.sleep(forTimeInterval: 1)
        let last = try #require(dashboard.messages(on: state).last)
        #expect(dashboard.messages(on: state).count == 5 && last.payload.contains(#""activity":"run-3""#), "the new activity's state stays")
    }

    /// libmosquitto is loaded by the first MQTT sink only: a run without one never maps it.
    @Test func onlyARunWithAnMQTTSinkMapsLibmosquitto() throws {
        for (arguments, mapped) in [([String](), false), (gatewayFlags(), true)] {
            let bridge = try BridgeProcess(["replay", "--speed", "1", "--from-now"] + arguments + [try trace(strap: "Strap H")])
            #expect(bridge.wait(timeout: 10) { mapped ? bridge.log.contains("connected (MQTT 5)") : !bridge.outputLines.isEmpty }, "\(bridge.log)")
            // cat reads procfs to the end; a single-read file API may stop at the first page.
            let maps = try runTool("/bin/cat", ["/proc/\(bridge.process.processIdentifier)/maps"])
            #expect(maps.contains("libmosquitto") == mapped, "\(arguments)")
            bridge.send(SIGKILL)
            #expect(bridge.exitStatus(timeout: 5) == 128 + SIGKILL)
        }
    }

    static func sequence(of payload: String) -> Int? {
        field("sequence", of: payload).flatMap(Int.init)
    }

    /// A top-level field of an update line, as text.
    static func field(_ name: String, of payload: String) -> String? {
        guard let object = try? JSONSerialization.jsonObject(with: Data(payload.utf8)) as? [String: Any], let value = object[name] else { return nil }
        return "\(value)"
    }
}
