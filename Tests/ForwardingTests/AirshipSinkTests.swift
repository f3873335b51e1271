import Foundation
import LiveState
import ProcessTestSupport
import TestSupport
import Testing
@testable import Forwarding
import SinkVocabulary

/// `--sink airship` against a real scripted HTTP server on 127.0.0.1 standing in for Airship's push API.
@Suite(.timeLimit(.minutes(1))) struct AirshipSinkTests {
    static let channel = "9c36e8c7-5a73-47c0-9716-99fd3d4197d5"

    static func sink(_ server: ServerProcess, audience: AirshipSinkSettings.Audience = .channel(channel), name: String? = nil,
                     authorization: AirshipAuthorization = .masterSecret("m4ster-s3cret"), spool: String? = nil,
                     log: LogLines = LogLines()) -> NetworkSink {
        .airship(settings: AirshipSinkSettings(baseURL: server.baseURL, appKey: "ISex_TTJRuarzs9-o_Gkhg", audience: audience, activityName: name),
                 authorization: authorization, settings: FastDelivery.settings, spoolDirectory: spool, log: log.sink)
    }

    /// What the NDJSON line says for the same update: ActivityKit's encoding, checked elsewhere.
    static func contentState(_ update: ActivityUpdate) throws -> NSDictionary {
        let line = try JSONSerialization.jsonObject(with: Data(try UpdateLine.encode(update))) as! [String: Any]
        return line["contentState"] as! NSDictionary
    }

    @Test func postsEachStepWithTheExactBodyAndHeaders() throws {
        let server = try ServerProcess(script: "scripted_http_server.py", arguments: [#"[{"status": 202, "body": "{\"ok\": true}"}]"#])
        let log = LogLines()
        let sink = Self.sink(server, log: log)
        let updates = SampleUpdates.activity(count: 3)
        for update in updates { try sink.accept(update) }
        sink.finish(grace: 5)

        let received = server.requests()
        try #require(received.count == 3)
        for (request, update) in zip(received, updates) {
            #expect(request.method == "POST" && request.path == "/api/push")
            #expect(request.header("accept") == "application/vnd.urbanairship+json; version=3")
            #expect(request.header("content-type") == "application/json")
            #expect(request.header("authorization") == "Basic " + Data("ISex_TTJRuarzs9-o_Gkhg:m4ster-s3cret".utf8).base64EncodedString())
            #expect(request.header("x-ua-appkey") == nil)
            var live: [String: Any] = [
                "event": update.event.rawValue, "name": "run-1", "priority": update.event == .update ? 5 : 10,
                "timestamp": update.timestamp.microsecondsSinceUnixEpoch / 1_000_000,
                "stale_date": update.staleDate.microsecondsSinceUnixEpoch / 1_000_000,
                "content_state": try Self.contentState(update),
            ]
            if update.event == .start {
                live["attributes_type"] = "WorkoutActivityAttributes"
                live["attributes"] = ["workoutName": "Morning run"]
                live["alert"] = ["title": "Workout started", "body": "Heart rate is live on the Lock Screen"]
            }
            if update.event == .end { live["dismissal_date"] = update.dismissalDate!.microsecondsSinceUnixEpoch / 1_000_000 }
            let expected: [String: Any] = [
                "audience": ["ios_channel": Self.channel], "device_types": ["ios"],
                "notification": ["ios": ["live_activity": live]],
            ]
            #expect(request.jsonBody.map { NSDictionary(dictionary: $0) } == NSDictionary(dictionary: expected), "\(request.body ?? "")")
        }
        // ActivityKit's dates: seconds since 2001 (2024-01-01T06:00:00Z is 725781600), not Unix seconds.
        #expect(received[0].body?.contains(#""timerRange":[725781600,725810400]"#) == true)
        #expect(sink.counters.sent == 3)
        #expect(!log.all.joined().contains("s3cret"))
    }

    @Test func aBearerTokenGoesWithTheAppKeyAndTheAudienceMayBeAll() throws {
        let server = try ServerProcess(script: "scripted_http_server.py", arguments: [#"[{"status": 202}]"#])
        let sink = Self.sink(server, audience: .all, name: "treadmill", authorization: .bearer("b3arer"))
        try sink.accept(SampleUpdates.update(.start, sequence: 1))
        sink.finish(grace: 5)
        let request = try #require(server.requests().first)
        #expect(request.header("authorization") == "Bearer b3arer")
        #expect(request.header("x-ua-appkey") == "ISex_TTJRuarzs9-o_Gkhg")
        #expect(request.jsonBody?["audience"] as? String == "all")
        let live = ((request.jsonBody?["notification"] as? [String: Any])?["ios"] as? [String: Any])?["live_activity"] as? [String: Any]
        #expect(live?["name"] as? String == "treadmill")
    }

    @Test func refusedPushesAreDroppedThrottledAndFailedOnesRetried() throws {
        let script = #"""
        [{"status": 429, "headers": {"Retry-After": "0"}}, {"status": 202},
         {"status": 400, "body": "{\"ok\": false, \"error\": \"Could not parse request body.\", \"error_code\": 40001}"},
         {"status": 503}, {"status": 202}]
        """#
        let server = try ServerProcess(script: "scripted_http_server.py", arguments: [script])
        let log = LogLines()
        let sink = Self.sink(server, log: log)
        for update in SampleUpdates.activity(count: 3) { try sink.accept(update) }
        sink.finish(grace: 5)
        let events = server.requests().map { (($0.jsonBody?["notification"] as? [String: Any])?["ios"] as? [String: Any]).flatMap { ($0["live_activity"] as? [String: Any])?["event"] as? String } }
        #expect(events == ["start", "start", "update", "end", "end"])
        #expect(sink.counters.sent == 2)
        #expect(sink.counters.failed == 1)
        #expect(log.all.contains { $0.contains("refused, dropped: Airship 400 40001 Could not parse request body.") })
    }

    /// A push that failed while a newer content update of its activity arrived is not sent again:
    /// a retry never shows, or bills, content that is already stale.
    @Test func aRetriedUpdateIsSupersededByNewerContent() throws {
        let server = try ServerProcess(script: "scripted_http_server.py",
                                       arguments: [#"[{"status": 202}, {"status": 503, "delay": 0.5}, {"status": 202}]"#])
        let sink = Self.sink(server)
        try sink.accept(SampleUpdates.update(.start, sequence: 1))
        #expect(eventually { server.requests().count == 1 })
        try sink.accept(SampleUpdates.update(.update, sequence: 2, heartRate: 130))
        #expect(eventually { server.requests().count == 2 })
        try sink.accept(SampleUpdates.update(.update, sequence: 3, heartRate: 140))
        sink.finish(grace: 5)
        let rates = server.requests().dropFirst().map {
            ((($0.jsonBody?["notification"] as? [String: Any])?["ios"] as? [String: Any])?["live_activity"] as? [String: Any])
                .flatMap { ($0["content_state"] as? [String: Any])?["heartRate"] as? Int }
        }
        #expect(rates == [130, 140], "the 503'd update (130) is not retried once 140 waits")
        #expect(sink.counters.superseded == 1)
    }

    /// 401: the credentials are wrong, nothing would get through: the sink stops sending and says how
    /// to fix it, and the start and end it holds are spooled for a run with the right ones.
    @Test func anUnauthorizedAppStopsTheSinkAndSpoolsItsLifecycle() throws {
        let directory = try TemporaryDirectory()
        let server = try ServerProcess(script: "scripted_http_server.py",
                                       arguments: [#"[{"status": 401, "body": "{\"ok\": false, \"error\": \"Unauthorized\", \"error_code\": 40101}"}]"#])
        let log = LogLines()
        let sink = Self.sink(server, spool: directory.path("spool"), log: log)
        for update in SampleUpdates.activity(count: 4) { try sink.accept(update) }
        sink.finish(grace: 2)
        #expect(server.requests().count == 1, "nothing after the 401")
        #expect(log.all.contains { $0.contains("Airship 401 40101 Unauthorized: check the app key and the master secret or bearer token") })
        #expect(log.all.contains { $0.contains("2 undelivered lifecycle steps spooled") }, "\(log.all)")
        #expect(sink.counters.spooled == 2)
    }

    /// `replay --sink airship`: the whole bundled run reaches the server, in order, start to end,
    /// each push carrying the state the NDJSON line of the same update shows.
    @Test func aReplayedWorkoutReachesAirship() throws {
        let server = try ServerProcess(script: "scripted_http_server.py", arguments: [#"[{"status": 202}]"#])
        let directory = try TemporaryDirectory()
        let secret = try directory.write("master-secret", "m4ster-s3cret\n")
        let result = ReplaySinkTests.replay(["--sink", "airship", "--airship-server", server.baseURL, "--airship-app-key", "ISex_TTJRuarzs9-o_Gkhg",
                                             "--airship-master-secret-file", secret, "--airship-channel", Self.channel,
                                             "--spool", directory.path("spool")])
        #expect(result.status == .success, "\(result.log)")
        let lines = ReplaySinkTests.replay([]).output.split(separator: "\n").map {
            try! JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any]
        }
        let pushes = server.requests().map {
            (($0.jsonBody?["notification"] as? [String: Any])?["ios"] as? [String: Any])?["live_activity"] as? [String: Any] ?? [:]
        }
        // The replay outruns the server, so some content was superseded; starts and ends all arrive.
        #expect(pushes.first?["event"] as? String == "start" && pushes.last?["event"] as? String == "end")
        #expect(pushes.filter { $0["event"] as? String != "update" }.count == lines.filter { $0["event"] as? String != "update" }.count)
        for push in pushes {
            let state = NSDictionary(dictionary: push["content_state"] as? [String: Any] ?? [:])
            #expect(lines.contains { line in
                (line["timestamp"] as? Int) == (push["timestamp"] as? Int) && (line["event"] as? String) == (push["event"] as? String)
                    && NSDictionary(dictionary: line["contentState"] as! [String: Any]) == state
            }, "\(push)")
        }
        #expect(result.log.contains("sink airship done: sent \(pushes.count),"))
        #expect(!result.log.contains("s3cret"))
    }

    @Test(arguments: [
        (#"{"a":1,"priority":5,"b":"\"priority\":5"}"#, #"{"a":1,"priority":10,"b":"\"priority\":5"}"#),
        (#"{"priority":10}"#, #"{"priority":10}"#),
    ])
    func anUpdateThatReplacedAnUrgentOneGoesUrgent(body: String, expected: String) {
        #expect(String(decoding: AirshipTransmitter.urgent(Array(body.utf8)), as: UTF8.self) == expected)
    }
}
