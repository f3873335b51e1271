import Foundation
import LiveState
import ProcessTestSupport
import TestSupport
import Testing
@testable import Forwarding
import SinkVocabulary

/// Fault runs with a real server that is really down (its port refuses connections), then up.
/// Times are scaled ~20×: updates every 25 ms stand for one a second (half a second of outage stands
/// for the first ~30 s in the issue), with backoff scaled to match (FastDelivery).
@Suite(.timeLimit(.minutes(1))) struct OutageTests {
    /// A port that refuses connections now: a server started there, then stopped.
    static func refusedPort() throws -> Int {
        let probe = try ServerProcess(script: "scripted_http_server.py", arguments: ["[]"])
        defer { probe.stop() }
        return probe.port
    }

    @Test func serverDownAtFirstThenUpGetsEveryStartAndEndInOrderWithTheNewestContent() throws {
        let port = try Self.refusedPort()
        let log = LogLines()
        let sink = NetworkSink.lifecycleServer(baseURL: "http://127.0.0.1:\(port)/hooks", token: nil,
                                               http: HTTPClientConfiguration(connectTimeout: 1), settings: FastDelivery.settings,
                                               spoolDirectory: nil, log: log.sink)
        // Two activities, one after the other: 40 updates each at "1 Hz" (25 ms).
        let first = SampleUpdates.activity("run-1", count: 40)
        let second = SampleUpdates.activity("run-2", count: 40)
        var server: ServerProcess?
        for (index, update) in (first + second).enumerated() {
            try sink.accept(update)
            Thread.sleep(forTimeInterval: 0.025)
            if index == 30 { server = try ServerProcess(script: "scripted_http_server.py", arguments: ["[]"], port: port) }
        }
        sink.finish(grace: 10)
        let received = try #require(server).requests()
        for updates in [first, second] {
            let activity = updates[0].activityID
            let sequences = received.filter { $0.path?.contains("/\(activity)/") == true }.compactMap { $0.header("activity-sequence").flatMap(Int.init) }
            #expect(sequences.first == 1, "start of \(activity) first")
            #expect(sequences.last == updates.count, "end of \(activity) last")
            #expect(sequences == sequences.sorted() && Set(sequences).count == sequences.count, "\(activity) in order, no repeats: \(sequences)")
        }
        // While down, the first activity's updates superseded each other: the one that went out before
        // the start... is the newest one that existed when the server came back, not the oldest.
        let firstUpdates = received.filter { $0.path == "/hooks/activities/run-1/update" }
        let firstSent = try #require(firstUpdates.first?.header("activity-sequence").flatMap(Int.init))
        #expect(firstSent > 20, "oldest unsent content was superseded (first update sent: #\(firstSent))")
        // The last update before each end carries the content of the last update produced.
        #expect(received.filter { $0.path == "/hooks/activities/run-2/update" }.last?.header("activity-sequence") == "39")
        let counters = sink.counters
        #expect(counters.retried > 0)
        #expect(counters.superseded > 0)
        #expect(counters.sent == received.count)
        print("outage run: \(counters.summary)")
    }

    @Test func undeliveredLifecycleStepsAreSpooledAndSentFirstNextRun() throws {
        let port = try Self.refusedPort()
        let spool = try TemporaryDirectory()
        let base = "http://127.0.0.1:\(port)/hooks"
        let down = NetworkSink.lifecycleServer(baseURL: base, token: nil, http: HTTPClientConfiguration(connectTimeout: 1),
                                               settings: FastDelivery.settings, spoolDirectory: spool.url.path, log: LogLines().sink)
        for update in SampleUpdates.activity(count: 5) { try down.accept(update) }
        down.finish(grace: 0.3)
        #expect(down.counters.spooled == 2)
        let spoolFile = Spool(directory: spool.url.path, sinkName: base, holding: [HTTPRequest.self]).path
        #expect(FileManager.default.fileExists(atPath: spoolFile))

        let server = try ServerProcess(script: "scripted_http_server.py", arguments: ["[]"], port: port)
        let log = LogLines()
        let up = NetworkSink.lifecycleServer(baseURL: base, token: nil, settings: FastDelivery.settings,
                                             spoolDirectory: spool.url.path, log: log.sink)
        try up.accept(SampleUpdates.update(.start, activity: "run-2", sequence: 1))
        up.finish(grace: 5)
        #expect(server.requests().map { $0.header("idempotency-key") } == ["run-1:1", "run-1:5", "run-2:1"])
        #expect(server.requests()[1].body == String(decoding: try UpdateLine.encode(SampleUpdates.activity(count: 5)[4]).dropLast(), as: UTF8.self))
        #expect(!FileManager.default.fileExists(atPath: spoolFile))
        #expect(log.all.contains { $0.contains("delivering 2 spooled lifecycle steps") })
    }

    @Test func pushServerDownAtFirstThenUpGetsStartAndEndOverHTTP2() throws {
        let port = try Self.refusedPort()
        let certificates = try TestCertificates.make()
        let directory = try TemporaryDirectory()
        let key = try SigningKey(contentsOfFile: try TestCertificates.makeAPNsKey(in: directory))
        let settings = APNsSinkSettings(baseURL: "https://127.0.0.1:\(port)", bundleID: "com.example.hrbridge", deviceToken: "ab12")
        let sink = NetworkSink.apns(settings: settings, tokens: ProviderTokenSource(key: key, keyID: "K", teamID: "T"),
                                    http: HTTPClientConfiguration(certificateAuthorityFile: certificates.caFile, connectTimeout: 1),
                                    settings: FastDelivery.settings, spoolDirectory: nil, log: LogLines().sink)
        let updates = SampleUpdates.activity(count: 30)
        var server: ServerProcess?
        for (index, update) in updates.enumerated() {
            try sink.accept(update)
            Thread.sleep(forTimeInterval: 0.025)
            if index == 20 {
                server = try ServerProcess(script: "h2_push_server.py", arguments: [certificates.serverCertificate, certificates.serverKey, "[]"], port: port)
            }
        }
        sink.finish(grace: 10)
        let received = try #require(server).requests()
        #expect(received.allSatisfy { $0.alpn == "h2" })
        let events = received.map { ($0.jsonBody?["aps"] as? [String: Any])?["event"] as? String ?? "?" }
        let heartRates = received.map { (($0.jsonBody?["aps"] as? [String: Any])?["content-state"] as? [String: Any])?["heartRate"] as? Int ?? 0 }
        #expect(events.first == "update" && received.first?.header("apns-priority") == "10", "the start comes first")
        #expect(events.last == "end")
        #expect(heartRates == heartRates.sorted(), "in order: \(heartRates)")
        #expect(heartRates.dropFirst().first ?? 0 > 98 + 15, "the first update after the start is recent content, not the oldest")
        #expect(sink.counters.superseded > 0 && sink.counters.retried > 0)
    }
}
