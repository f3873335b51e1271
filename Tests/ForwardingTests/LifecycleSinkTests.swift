import Foundation
import LiveState
import ProcessTestSupport
import SinkVocabulary
import TestSupport
import Testing
@testable import CLI
@testable import Forwarding

/// `--sink URL` against a real scripted HTTP server on 127.0.0.1.
@Suite(.timeLimit(.minutes(1))) struct LifecycleSinkTests {
    static func sink(_ server: ServerProcess, token: SecretSource? = nil, environment: [String: String] = [:], http: HTTPClientConfiguration = .init(),
                     settings: DeliveryWorker.Settings = FastDelivery.settings, spool: String? = nil, log: LogLines = LogLines()) -> NetworkSink {
        .lifecycleServer(baseURL: server.baseURL + "/hooks", token: token, environment: environment, http: http, settings: settings,
                         spoolDirectory: spool, log: log.sink)
    }

    @Test func postsTheEnvelopeWithIdempotencyKeySequenceAndBearerToken() throws {
        let directory = try TemporaryDirectory()
        let tokenFile = try directory.write("token", "s3cret-token\n")
        let server = try ServerProcess(script: "scripted_http_server.py", arguments: ["[]"])
        let log = LogLines()
        let sink = Self.sink(server, token: .file(.path(tokenFile)), log: log)
        let updates = SampleUpdates.activity(count: 3)
        for update in updates { try sink.accept(update) }
        sink.finish(grace: 5)

        let received = server.requests()
        try #require(received.count == 3)
        for (request, update) in zip(received, updates) {
            #expect(request.method == "POST")
            #expect(request.path == "/hooks/activities/run-1/\(update.event.rawValue)")
            var line = try UpdateLine.encode(update)
            line.removeLast()
            #expect(request.body == String(decoding: line, as: UTF8.self))
            #expect(request.header("idempotency-key") == "run-1:\(update.sequence)")
            #expect(request.header("activity-sequence") == String(update.sequence))
            #expect(request.header("authorization") == "Bearer s3cret-token")
            #expect(request.header("content-type") == "application/json")
        }
        #expect(sink.counters.sent == 3)
        #expect(!log.all.joined().contains("s3cret"))
    }

    @Test func retriesServerErrorsDropsRefusedRequestsAndGoesOn() throws {
        let script = #"""
        [{"status": 503, "headers": {"Retry-After": "0"}}, {"status": 200},
         {"status": 400, "body": "{\"error\": \"invalid-update\", \"message\": \"heartRate out of range\"}"},
         {"status": 200}]
        """#
        let server = try ServerProcess(script: "scripted_http_server.py", arguments: [script])
        let sink = Self.sink(server)
        for update in SampleUpdates.activity(count: 3) { try sink.accept(update) }
        sink.finish(grace: 5)
        let received = server.requests()
        #expect(received.map { $0.header("idempotency-key") } == ["run-1:1", "run-1:1", "run-1:2", "run-1:3"])
        let counters = sink.counters
        #expect(counters.sent == 2)
        #expect(counters.retried == 1)
        #expect(counters.failed == 1)
        #expect(counters.lastError?.contains("HTTP 400 invalid-update: heartRate out of range") == true)
    }

    @Test func slowAndClosedConnectionsAreRetriedWithTheSameKey() throws {
        let server = try ServerProcess(script: "scripted_http_server.py",
                                       arguments: [#"[{"status": 200, "delay": 2}, {"close": true}, {"status": 201}]"#])
        let sink = Self.sink(server, http: HTTPClientConfiguration(requestTimeout: 0.5))
        try sink.accept(SampleUpdates.update(.start, sequence: 1))
        sink.finish(grace: 10)
        #expect(server.requests().map { $0.header("idempotency-key") } == ["run-1:1", "run-1:1", "run-1:1"])
        #expect(sink.counters.sent == 1)
        #expect(sink.counters.retried == 2)
    }

    @Test func aRefusedTokenIsReadAgainFromItsFile() throws {
        let directory = try TemporaryDirectory()
        let tokenFile = try directory.write("token", "old-token")
        let server = try ServerProcess(script: "scripted_http_server.py", arguments: [#"[{"status": 401}, {"status": 200}]"#])
        let slowRetry = DeliveryWorker.Settings(unreachable: RetrySchedule(initial: 1, cap: 1))
        let sink = Self.sink(server, token: .file(.path(tokenFile)), settings: slowRetry)
        try sink.accept(SampleUpdates.update(.start, sequence: 1))
        #expect(eventually { server.requests().count == 1 })
        _ = try directory.write("token", "new-token\n")
        sink.finish(grace: 5)
        #expect(server.requests().map { $0.header("authorization") } == ["Bearer old-token", "Bearer new-token"])
    }

    @Test func aTokenFromTheEnvironment() throws {
        let server = try ServerProcess(script: "scripted_http_server.py", arguments: ["[]"])
        let sink = Self.sink(server, token: .environment("LIFECYCLE_TOKEN"), environment: ["LIFECYCLE_TOKEN": "env-token\n"])
        try sink.accept(SampleUpdates.update(.start, sequence: 1))
        sink.finish(grace: 5)
        #expect(server.requests().map { $0.header("authorization") } == ["Bearer env-token"])
    }

    @Test func a429StormIsWaitedOutAndEverythingArrivesInOrder() throws {
        let storm = Array(repeating: #"{"status": 429}"#, count: 6).joined(separator: ",")
        let server = try ServerProcess(script: "scripted_http_server.py", arguments: ["[\(storm), {\"status\": 200}]"])
        let sink = Self.sink(server)
        for update in SampleUpdates.activity(count: 4) { try sink.accept(update) }
        sink.finish(grace: 10)
        let keys = server.requests().map { $0.header("idempotency-key") ?? "" }
        // Update 2 waited behind the throttled start and was superseded by update 3: latest state wins.
        #expect(keys == Array(repeating: "run-1:1", count: 7) + ["run-1:3", "run-1:4"])
        #expect(sink.counters.retried == 6)
        #expect(sink.counters.sent == 3)
        #expect(sink.counters.superseded == 1)
    }
}

/// The repository's OpenAPI contract, checked by python3-jsonschema against what the sink really sent.
@Suite(.timeLimit(.minutes(1))) struct LifecycleContractTests {
    static let contract = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Sources/Forwarding/Kinds/Lifecycle/lifecycle-server.openapi.json").path

    @Test func everyRequestTheSinkSendsFollowsTheContract() throws {
        let server = try ServerProcess(script: "scripted_http_server.py", arguments: ["[]"])
        let sink = NetworkSink.lifecycleServer(baseURL: server.baseURL + "/hooks", token: nil, settings: FastDelivery.settings,
                                               spoolDirectory: nil, log: LogLines().sink)
        let updates = [
            SampleUpdates.update(.start, activity: "hrbridge-20240101T060000Z-1", sequence: 1),
            SampleUpdates.update(.update, activity: "hrbridge-20240101T060000Z-1", sequence: 2, heartRate: nil, reason: .sensorLost),
            SampleUpdates.update(.end, activity: "hrbridge-20240101T060000Z-1", sequence: 3),
        ]
        for update in updates {
            try sink.accept(update)
            #expect(eventually { server.requests().count == update.sequence })
        }
        sink.finish(grace: 5)
        let checker = TestScripts.path("check_contract.py")
        let output = try runTool("/usr/bin/python3", [checker, Self.contract, server.logPath, "/hooks"])
        #expect(output == "ok 3\n")
    }

    static func validateWithOpenAPICore(_ requests: String, host: String) throws -> String {
        let openAPIPython = TestScripts.openAPIPython
        try #require(FileManager.default.isExecutableFile(atPath: openAPIPython), "no \(openAPIPython): run scripts/install-deps test")
        let validator = TestScripts.path("validate_openapi_requests.py")
        return try runTool(openAPIPython, [validator, contract, requests, host])
    }

    /// openapi-core, a validator nobody here wrote, places every request of a whole replay under the
    /// contract (server, path, headers, bearer, body); under a bare `{base}` server it placed none.
    @Test func openAPICoreAcceptsEveryRequestOfAReplay() throws {
        let server = try ServerProcess(script: "scripted_http_server.py", arguments: ["[]"])
        let files = try TemporaryDirectory()
        let console = Console(output: .memory(), log: .memory(), input: { [] })
        let status = HRBridge.run(["replay", "--fast", "--from-now", "--sink", server.baseURL + "/hooks",
                                   "--token-file", try files.write("token", "contract-token\n"), "--state-dir", files.path("state")],
                                  console: console)
        #expect(status == .success, "\(console.log.text)")
        let sent = server.requests().count
        #expect(sent > 2, "a start, updates and an end")
        #expect(try Self.validateWithOpenAPICore(server.logPath, host: server.baseURL) == "ok \(sent)\n")
        // The same requests at a sink URL without a path match the contract's path-less server.
        let bare = try String(contentsOfFile: server.logPath, encoding: .utf8).replacingOccurrences(of: #""path": "/hooks/"#, with: #""path": "/"#)
        #expect(try Self.validateWithOpenAPICore(try files.write("bare.ndjson", bare), host: server.baseURL) == "ok \(sent)\n")
    }

    /// The validator is not a rubber stamp: a path, a missing header or a body the contract does not allow.
    @Test(arguments: [
        (#"{"method": "POST", "path": "/hooks/activities/a/restart", "headers": [["content-type", "application/json"], ["idempotency-key", "a:1"], ["activity-sequence", "1"]], "body": "{}"}"#,
         "Path not found"),
        (#"{"method": "POST", "path": "/hooks/activities/a/start", "headers": [["content-type", "application/json"], ["idempotency-key", "a:1"]], "body": "{}"}"#,
         "Activity-Sequence"),
        (#"{"method": "POST", "path": "/hooks/activities/a/start", "headers": [["content-type", "application/json"], ["idempotency-key", "a:1"], ["activity-sequence", "1"]], "body": "{\"event\": \"start\"}"}"#,
         "attributes"),
    ])
    func openAPICoreRejectsWhatBreaksTheContract(line: String, says: String) throws {
        let directory = try TemporaryDirectory()
        let error = #expect(throws: ToolError.self) {
            try Self.validateWithOpenAPICore(try directory.write("requests.ndjson", line + "\n"), host: "http://127.0.0.1:1")
        }
        #expect(error?.message.contains(says) == true, "\(error?.message ?? "")")
    }

    @Test func theCheckerCatchesABodyThatBreaksTheContract() throws {
        let directory = try TemporaryDirectory()
        let bad = #"{"method": "POST", "path": "/hooks/activities/a/start", "headers": [["idempotency-key", "a:1"], ["activity-sequence", "1"]], "body": "{\"event\": \"start\", \"activity\": \"a\", \"sequence\": 1}"}"#
        let log = try directory.write("requests.ndjson", bad + "\n")
        let checker = TestScripts.path("check_contract.py")
        let error = #expect(throws: ToolError.self) { try runTool("/usr/bin/python3", [checker, Self.contract, log, "/hooks"]) }
        #expect(error?.message.contains("body breaks the contract: 'attributes' is a required property") == true)
    }
}
