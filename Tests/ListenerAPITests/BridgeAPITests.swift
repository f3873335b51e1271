import Config
import Foundation
import HTTPServer
import Sensors
import SessionTestSupport
import TestSupport
import Testing
@testable import Session
@testable import ListenerAPI

/// The HTTP API over two real strap sessions, called as the listener calls it (no socket: the
/// transport has its own tests): the statuses and bodies each request gets, and that an action
/// reaches the activity it names and no other.
@Suite(.timeLimit(.minutes(1))) struct BridgeAPITests {
    final class Bridge {
        let directory: TemporaryDirectory
        let made: [(strap: StrapConfiguration, session: LiveSession)]
        let api: BridgeAPI

        init(token: String? = nil) throws {
            directory = try TemporaryDirectory()
            let made = try StrapSessions.make(try TwoStraps.configuration(directory),
                                              context: TwoStraps.context(directory, console: CapturedConsole()))
            self.made = made
            let controls = SessionControls(made.map { .init(name: $0.strap.strap.controlName, session: $0.session) })
            api = BridgeAPI(controls: controls, preview: PreviewHub(), stateDirectory: directory.path("state"), version: "test",
                            token: token.flatMap(BearerToken.init))
        }

        func start() throws {
            for (_, session) in made { try session.start() }
            let now = try #require(SessionClock.real.now())
            for (index, (_, session)) in made.enumerated() {
                session.deliver(SensorEvent(time: now, kind: .connected))
                session.deliver(SensorEvent(time: now, kind: .notification(characteristic: .heartRateMeasurement, value: [0x06, 120 + UInt8(index)])))
            }
        }

        func stop() {
            for (_, session) in made { session.stop(signal: SIGTERM) }
            _ = made.map { $0.session.wait() }
        }

        func call(_ method: String, _ path: String, json: String? = nil, headers: [(name: String, value: String)] = []) -> (Int, [String: Any]) {
            let contentType: [(name: String, value: String)] = json == nil ? [] : [("Content-Type", "application/json")]
            let response = api.answer(HTTPRequest(method: method, path: path, headers: contentType + headers, body: Array((json ?? "").utf8)))
            let object = (try? JSONSerialization.jsonObject(with: Data(response.bytes ?? []))) as? [String: Any] ?? [:]
            return (response.status, object)
        }

        func activityIDs() -> [String] {
            let listed = call("GET", "/v1/activities").1["activities"] as? [[String: Any]] ?? []
            return listed.compactMap { $0["activity"] as? String }
        }
    }

    @Test func actionsReachTheNamedActivityOnly() throws {
        let bridge = try Bridge()
        try bridge.start()
        defer { bridge.stop() }
        let ids = bridge.activityIDs()
        #expect(ids.count == 2, "\(ids)")
        let (status, paused) = bridge.call("POST", "/v1/activities/\(ids[1])/pause")
        #expect(status == 200 && paused["state"] as? String == "paused" && paused["strap"] as? String == "Polar H10 8C4E", "\(paused)")
        let listed = bridge.call("GET", "/v1/activities").1["activities"] as? [[String: Any]] ?? []
        #expect(listed.map { $0["state"] as? String } == ["running", "paused"], "the other strap's activity is untouched")

        let (labelStatus, labelled) = bridge.call("PUT", "/v1/activities/\(ids[0])/label", json: #"{"label": "  Intervals 4x4 "}"#)
        #expect(labelStatus == 200 && labelled["intervalLabel"] as? String == "Intervals 4x4", "trimmed as ctl label trims: \(labelled)")
        let (tooLong, refusal) = bridge.call("PUT", "/v1/activities/\(ids[0])/label", json: #"{"label": "\#(String(repeating: "x", count: 5000))"}"#)
        #expect(tooLong == 400 && (refusal["error"] as? String ?? "").contains("4096"), "\(refusal)")

        let (ended, end) = bridge.call("POST", "/v1/activities/\(ids[0])/end")
        #expect(ended == 200 && end["state"] as? String == "ended" && end["reason"] as? String == "end:stopped", "\(end)")
        let (again, conflict) = bridge.call("POST", "/v1/activities/\(ids[0])/resume")
        #expect(again == 409 && (conflict["error"] as? String ?? "").contains("already ended"), "\(conflict)")
        #expect(bridge.call("POST", "/v1/activities/row-19700101T000000Z-1/pause").0 == 404)
        #expect(bridge.call("POST", "/v1/activities/\(ids[1])/resume").0 == 200, "the second strap runs on")
    }

    @Test func badRequestsGetTheirStatusAndChangeNothing() throws {
        let bridge = try Bridge()
        try bridge.start()
        defer { bridge.stop() }
        let id = try #require(bridge.activityIDs().first)
        let label = "/v1/activities/\(id)/label"
        for (body, reason) in [("{\"label\": ", "not JSON"), ("[\"x\"]", "expected {\"label\": TEXT}"), ("{\"label\": 5}", "one string"),
                               ("{\"label\": \"a\", \"b\": 1}", "unknown key \"b\""), ("{}", "one string"), ("", "not JSON")] {
            let (status, object) = bridge.call("PUT", label, json: body)
            #expect(status == 400 && (object["error"] as? String ?? "").contains(reason), "\(body): \(status) \(object)")
        }
        #expect(bridge.call("PUT", label, headers: [("Content-Type", "text/plain")]).0 == 415)
        #expect(bridge.call("POST", "/v1/activities/\(id)/pause", json: "{}").0 == 415, "pause takes no body")
        #expect(bridge.call("GET", "/v1/activities/\(id)/pause").0 == 405)
        #expect(bridge.call("GET", "/v1/activity").0 == 404)
        let unchanged = bridge.call("GET", "/v1/activities").1["activities"] as? [[String: Any]] ?? []
        #expect(unchanged.first?["sequence"] as? Int == 1 && unchanged.first?["intervalLabel"] as? String == "", "\(unchanged)")
    }

    @Test func readinessSaysWhyAndMetricsCount() throws {
        let bridge = try Bridge()
        let (before, why) = bridge.call("GET", "/readyz")
        #expect(before == 503 && (why["reason"] as? String ?? "").contains("C8:5F:33:12:34:56: not running"), "\(why)")
        try bridge.start()
        defer { bridge.stop() }
        _ = bridge.activityIDs() // after the deliveries: each session's queue has handled them
        #expect(bridge.call("GET", "/readyz").0 == 200)
        let metrics = bridge.api.answer(HTTPRequest(method: "GET", path: "/metrics"))
        let text = String(decoding: metrics.bytes ?? [], as: UTF8.self)
        #expect(metrics.header("Content-Type") == "text/plain; version=0.0.4; charset=utf-8")
        #expect(text.contains(#"hrbridge_sensor_notifications_total{strap="C8:5F:33:12:34:56",sensor="heart_rate"} 1"#), "\(text)")
        #expect(text.contains(#"hrbridge_updates_total{strap="Polar H10 8C4E",reason="start",priority="10"} 1"#))
        #expect(text.contains(#"hrbridge_sensor_links_up{strap="Polar H10 8C4E",role="strap"} 1"#))
        #expect(text.contains(#"hrbridge_sink_deliveries_total{strap="C8:5F:33:12:34:56",sink="file",outcome="sent"} 1"#))
        #expect(!text.contains("hrbridge-") && !text.contains("row-"), "no activity id in a label")
        try FileManager.default.setAttributes([.posixPermissions: 0o500], ofItemAtPath: bridge.directory.path("state"))
        defer { try? FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: bridge.directory.path("state")) }
        if getuid() != 0 { // root writes anywhere
            let (status, unwritable) = bridge.call("GET", "/readyz")
            #expect(status == 503 && (unwritable["reason"] as? String ?? "").contains("not writable"), "\(unwritable)")
        }
    }

    @Test func withATokenOnlyTheProbesAreOpen() throws {
        let bridge = try Bridge(token: "s3cret")
        #expect(bridge.call("GET", "/livez").0 == 200)
        #expect(bridge.call("GET", "/readyz").0 == 503, "open, and not ready: nothing started")
        for path in ["/metrics", "/v1/activities"] {
            #expect(bridge.call("GET", path).0 == 401)
            #expect(bridge.call("GET", path, headers: [("Authorization", "Bearer wrong")]).0 == 401)
            #expect(bridge.call("GET", path, headers: [("Authorization", "Bearer s3cret")]).0 == 200)
        }
        let challenge = bridge.api.answer(HTTPRequest(method: "POST", path: "/v1/activities/x/end"))
        #expect(challenge.status == 401 && challenge.header("WWW-Authenticate") == "Bearer")
    }
}
