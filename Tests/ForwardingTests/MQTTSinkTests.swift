import Foundation
import LiveState
import Sensors
import TestSupport
import Testing
@testable import Forwarding
import SinkVocabulary

/// The MQTT sink's pure parts: broker URLs, topic names, control commands, what an update becomes,
/// how expiry plays out at send time, the spool line and Home Assistant's discovery.
@Suite(.timeLimit(.minutes(1))) struct MQTTSinkTests {
    @Test(arguments: [
        ("mqtt://broker.local", MQTTBroker(host: "broker.local", port: 1883, tls: false)),
        ("mqtts://broker.local", MQTTBroker(host: "broker.local", port: 8883, tls: true)),
        ("MQTT://10.0.0.2:1884/", MQTTBroker(host: "10.0.0.2", port: 1884, tls: false)),
        ("mqtts://[::1]:8884", MQTTBroker(host: "::1", port: 8884, tls: true)),
    ])
    func brokerURLs(_ text: String, _ broker: MQTTBroker) {
        #expect(MQTTBroker(url: text) == broker)
    }

    @Test(arguments: ["mqtt://", "mqtt://user:secret@host", "mqtt://host:0", "mqtt://host:65536", "mqtt://host/topic",
                      "http://host", "mqtt://host:x", "mqtt://[::1", "mqtt://a b"])
    func brokerURLsRefused(_ text: String) {
        #expect(MQTTBroker(url: text) == nil)
    }

    @Test func brokerDescriptionBracketsIPv6() {
        #expect(MQTTBroker(host: "::1", port: 1883, tls: false).description == "mqtt://[::1]:1883")
        #expect(MQTTBroker(host: "gw", port: 8883, tls: true).description == "mqtts://gw:8883")
    }

    @Test(arguments: [
        ("Polar H10 (recording)", "polar-h10-recording"),
        ("A0:9E:1A:12:34:56", "a0-9e-1a-12-34-56"),
        ("room/2+#", "room-2"),
        ("___", "___"),
        ("∞", "unnamed"),
        ("  Gym  ", "gym"),
    ])
    func topicLevels(_ name: String, _ level: String) {
        #expect(MQTTTopics.level(name) == level)
    }

    @Test func topicLayout() {
        let topics = MQTTTopics(prefix: nil, gateway: "Room 2", source: "Polar H10")
        #expect(topics.state == "hrbridge/room-2/polar-h10/state")
        #expect(topics.updates == "hrbridge/room-2/polar-h10/updates")
        #expect(topics.control == "hrbridge/room-2/polar-h10/control")
        #expect(topics.status == "hrbridge/room-2/status")
        #expect(MQTTTopics(prefix: "gym/a", gateway: "x", source: nil).state == "gym/a/strap/state")
        #expect(MQTTSinkSettings.defaultClientID(gateway: "Room 2", topics: topics) == "hrbridge-room-2-polar-h10")
    }

    @Test(arguments: [("gym/room-2", true), ("hrbridge", true), ("a//b", false), ("a/+/b", false), ("a/#", false), ("/a", false), ("", false)])
    func topicPrefixes(_ text: String, _ accepted: Bool) {
        #expect(SinkOption.TextRule.mqttTopicPrefix.accepts(text) == accepted)
    }

    @Test(arguments: [
        ("pause", ControlAction.pause), (" resume\n", .resume), ("end", .end),
        ("label Intervals 4×400", .label("Intervals 4×400")), ("label   Cool-down ", .label("Cool-down")),
    ])
    func controlCommands(_ text: String, _ command: ControlAction) {
        #expect(ControlAction.parse(text) == .success(command))
    }

    @Test(arguments: ["", "Pause", "label", "label   ", "stop", "labelX"])
    func controlCommandsRefused(_ text: String) throws {
        guard case let .failure(refusal) = ControlAction.parse(text) else { Issue.record("\(text) accepted"); return }
        #expect(!refusal.description.isEmpty)
    }

    @Test func anUpdateBecomesItsLineRetainedOnStateAndStreamedOnUpdates() throws {
        let topics = MQTTTopics(prefix: "hrbridge/gym", strap: "strap-a")
        let now = Timestamp(unixSeconds: 1_800_000_000)
        var end = SampleUpdates.update(.end, sequence: 9)
        end.dismissalDate = end.timestamp.adding(seconds: 600)
        for update in [SampleUpdates.update(.start, sequence: 1), SampleUpdates.update(.update, sequence: 2), end] {
            let delivery = try MQTTMessages.delivery(for: EncodedUpdate(update), topics: topics, now: now)
            let line = Array(try UpdateLine.encode(update).dropLast())
            let staleWindow = update.staleDate.seconds(since: update.timestamp)
            #expect(delivery.message as? MQTTPublications == MQTTPublications([
                MQTTPublication(topic: "hrbridge/gym/strap-a/state", payload: line, retain: true,
                                expires: update.event == .end ? now.adding(seconds: 600) : nil),
                MQTTPublication(topic: "hrbridge/gym/strap-a/updates", payload: line, retain: false, expires: now.adding(seconds: staleWindow)),
            ]))
            #expect(delivery.kind == (update.event == .update ? .content : .lifecycle))
        }
    }

    @Test func expiryAtSendTime() {
        let now = Timestamp(unixSeconds: 1_800_000_000)
        let retained = MQTTPublication(topic: "s", payload: [1], retain: true, expires: now.adding(seconds: 90.2))
        let streamed = MQTTPublication(topic: "u", payload: [1], retain: false, expires: now.adding(seconds: -1))
        #expect(MQTTTransmitter.plan(retained, now: now) == .publish(expirySeconds: 91))
        #expect(MQTTTransmitter.plan(MQTTPublication(topic: "s", payload: [1], retain: true), now: now) == .publish(expirySeconds: 0))
        #expect(MQTTTransmitter.plan(retained, now: now.adding(seconds: 91)) == .clear, "an ended state past its dismissal")
        #expect(MQTTTransmitter.plan(streamed, now: now) == .skip, "a stale update nobody should see")
    }

    @Test func spoolKeepsMQTTDeliveriesAndReadsEarlierHTTPLines() throws {
        let directory = try TemporaryDirectory()
        let spool = Spool(directory: directory.path("spool"), sinkName: "mqtt-test", holding: [MQTTPublications.self])
        let end = try MQTTMessages.delivery(for: EncodedUpdate(SampleUpdates.update(.end, sequence: 3)), topics: MQTTTopics(prefix: "p", strap: "s"),
                                            now: Timestamp(unixSeconds: 1_800_000_000))
        try spool.store([end])
        #expect(spool.load(warn: { Issue.record("\($0)") }) == [end])
        _ = try directory.write("http.ndjson", #"{"activityID":"a","event":"end","kind":"lifecycle","request":{"body":[],"headers":[],"method":"POST","url":"http://h/"},"sequence":2,"urgent":true}"# + "\n")
        let loaded = Spool(directory: directory.url.path, sinkName: "http", holding: [MQTTPublications.self, HTTPRequest.self])
            .load(warn: { Issue.record("\($0)") })
        #expect(loaded.map { $0.message as? HTTPRequest } == [HTTPRequest(url: "http://h/", headers: [], body: [])])
    }

    @Test func homeAssistantDiscoveryMakesEachStrapADeviceWithTwoSensors() throws {
        let topics = MQTTTopics(prefix: "hrbridge/gym", strap: "strap-a")
        let configurations = HomeAssistantDiscovery.configurations(topics: topics)
        #expect(configurations.map(\.topic) == ["homeassistant/sensor/hrbridge-gym/strap-a_heart_rate/config",
                                                 "homeassistant/sensor/hrbridge-gym/strap-a_distance/config"])
        #expect(configurations.allSatisfy { $0.retain })
        let objects = try configurations.map { try #require(JSONSerialization.jsonObject(with: Data($0.payload)) as? [String: Any]) }
        #expect(objects.map { $0["unit_of_measurement"] as? String } == ["bpm", "m"])
        #expect(objects.allSatisfy { $0["state_topic"] as? String == "hrbridge/gym/strap-a/state" })
        #expect(objects.allSatisfy { $0["availability_topic"] as? String == "hrbridge/gym/status" })
        #expect(objects.allSatisfy { ($0["device"] as? [String: Any])?["identifiers"] as? [String] == ["hrbridge-gym_strap-a"] })
        #expect(Set(objects.compactMap { $0["unique_id"] as? String }).count == 2)
    }
}
