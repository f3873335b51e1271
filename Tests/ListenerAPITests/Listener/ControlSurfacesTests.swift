import BusTestSupport
import Foundation
import ProcessTestSupport
import TestSupport
import Testing
@testable import CLI

/// `hrbridge ctl` over D-Bus, MQTT's control topic and HTTP steer one running replay through the
/// same entry point: each moves the same activity, and each refuses a label too long with the same
/// words (the engine's), said its own way.
@Suite(.serialized, .timeLimit(.minutes(2))) struct ControlSurfacesTests {
    @Test func dbusMQTTAndHTTPReachTheSameEntryPointAndGiveTheSameAnswers() throws {
        let bus = try PrivateBus()
        defer { bus.stop() }
        let broker = try MosquittoBroker()
        let files = try TemporaryDirectory()
        let password = try files.write("mqtt-password", MosquittoBroker.users["gateway"]! + "\n")
        let trace = try files.write("strap-s.trace", BundledTrace.text.replacingOccurrences(
            of: "name=Polar%20H10%20(recording)", with: "name=Strap%20S"))
        let listening = try ListeningBridge([
            "--speed", "20", "--from-now", "--control-bus", "session", "--sink", "stdout", "--sink", broker.url,
            "--mqtt-username", "gateway", "--mqtt-password-file", password, "--mqtt-gateway", "gym", "--mqtt-control",
            "--spool", files.path("spool"), trace,
        ], environment: bus.environment)
        let bridge = listening.bridge
        let id = try listening.activityID()
        #expect(bridge.wait(timeout: 10) { bridge.log.contains("connected (MQTT 5)") }, "\(bridge.log)")
        Thread.sleep(forTimeInterval: 0.3) // the subscription to the control topic follows the connect
        let control = "hrbridge/gym/strap-s/control"
        func ctl(_ arguments: [String]) throws -> BridgeProcess {
            let process = try BridgeProcess(["ctl"] + arguments, environment: bus.environment)
            _ = process.exitStatus(timeout: 20)
            return process
        }
        func sent(_ reason: String) -> Bool {
            bridge.wait(timeout: 10) { bridge.output.contains(#""reason":"\#(reason)""#) }
        }

        #expect(try ctl(["pause"]).process.terminationStatus == 0)
        #expect(sent("paused"), "D-Bus paused it: \(bridge.log)")
        try broker.publish(control, "resume", user: "coach")
        #expect(sent("resumed"), "MQTT resumed it: \(bridge.log)")
        let labelled = try listening.curl("PUT", "/v1/activities/\(id)/label", json: #"{"label": "Intervals"}"#)
        #expect(labelled.status == 200 && labelled.json["activity"] as? String == id)
        #expect(sent("label"), "HTTP labelled it")

        let long = String(repeating: "x", count: 5000)
        let refused = try listening.curl("PUT", "/v1/activities/\(id)/label", json: #"{"label": "\#(long)"}"#)
        let reason = try #require(refused.json["error"] as? String)
        #expect(refused.status == 400 && reason.contains("4096"), "\(refused.body)")
        let byBus = try ctl(["label", long])
        #expect(byBus.process.terminationStatus == 65 && byBus.log.contains("replay: \(reason)"), "\(byBus.log)")
        try broker.publish(control, "label \(long)", user: "coach")
        #expect(bridge.wait(timeout: 10) { bridge.log.contains("refused: \(reason)") }, "MQTT's log line: \(bridge.log)")
        #expect(!bridge.output.contains(long), "no surface got the long label through")

        #expect(try listening.curl("GET", "/v1/activities").json["activities"].map { "\($0)" }?.contains("Intervals") == true)
        try broker.publish(control, "end", user: "coach")
        #expect(bridge.exitStatus(timeout: 20) == 0, "MQTT ended it: \(bridge.log)")
        let ended = try ctl(["end"])
        #expect(ended.process.terminationStatus == 69, "nobody runs any more: \(ended.log)")
    }
}
