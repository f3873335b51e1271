import Foundation
import LiveState
import ProcessTestSupport
import TestSupport
import Testing
@testable import SessionState

/// Leftovers owed to a sink the next run does not have (issue 15, defect 10): kept per sink until a
/// run with that sink, or `hrbridge recover`, sends the end; a file sink gets it from any run. The
/// built binary, a real lifecycle server on 127.0.0.1, a file sink, and a state file written as a
/// killed run leaves it.
@Suite(.serialized, .timeLimit(.minutes(2))) struct LeftoverRecoveryTests {
    struct Setup {
        let directory: TemporaryDirectory
        let trace: String
        let server: ServerProcess
        var state: String { directory.path("state") }
        var spool: String { directory.path("spool") }
        var fileA: String { directory.path("a.ndjson") }
        var stateFilePath: String { "\(state)/activities/\(SessionKey.replay(tracePath: trace)).json" }

        init() throws {
            directory = try TemporaryDirectory()
            trace = try BridgeProcess.climbingTrace(in: directory, seconds: 5)
            server = try ServerProcess(script: "scripted_http_server.py", arguments: ["[]"])
        }

        /// A killed run's state: activity `run-1` at sequence 5, sent to `sinks`.
        func leaveActivityBehind(sinks: [String]) throws {
            var ledger = ActivityLedger()
            ledger.record(EncodedUpdate(SampleUpdates.update(.update, sequence: 5)), sinks: sinks)
            let earlier = try ActivityStateFile(directory: state, key: SessionKey.replay(tracePath: trace))
            try earlier.save(ledger)
            earlier.release()
        }

        func replay(_ sinks: [String]) throws -> BridgeProcess {
            try BridgeProcess(["replay", "--speed", "1000", "--state-dir", state, "--spool", spool] + sinks.flatMap { ["--sink", $0] } + [trace])
        }

        func recover(_ extra: [String]) throws -> BridgeProcess {
            try BridgeProcess(["recover", "--state-dir", state, "--spool", spool] + extra)
        }

        var owed: [[String]] {
            guard let data = FileManager.default.contents(atPath: stateFilePath),
                  let ledger = try? ActivityLedger(decoding: Array(data)) else { return [] }
            return ledger.entries.map(\.sinks)
        }

        var fileALines: [String] {
            (FileManager.default.contents(atPath: fileA)).map { String(decoding: $0, as: UTF8.self).split(separator: "\n").map(String.init) } ?? []
        }
    }

    static func field(_ name: String, _ line: String?) -> String? {
        line.flatMap { BridgeProcess.json($0)[name].map { "\($0)" } }
    }

    @Test func anEndOwedToASinkTheNextRunLacksWaitsForARunWithIt() throws {
        let setup = try Setup()
        try setup.leaveActivityBehind(sinks: ["file:\(setup.fileA)", setup.server.baseURL])

        let onlyA = try setup.replay(["file:\(setup.fileA)"])
        #expect(onlyA.exitStatus(timeout: 60) == 0)
        let end = try #require(setup.fileALines.first)
        #expect(Self.field("activity", end) == "run-1" && Self.field("sequence", end) == "6" && Self.field("reason", end) == "end:recovered")
        #expect(setup.server.requests().isEmpty, "the server is not this run's sink")
        #expect(setup.owed == [[setup.server.baseURL]], "owed to the server alone: the file has its end")
        #expect(onlyA.log.contains("also went to \(setup.server.baseURL), which this run does not have: its end stays owed in \(setup.stateFilePath)"))

        let again = try setup.replay(["file:\(setup.fileA)"])
        #expect(again.exitStatus(timeout: 60) == 0)
        #expect(setup.fileALines.filter { $0.contains("end:recovered") }.count == 1, "the file is not sent it twice")
        #expect(setup.owed == [[setup.server.baseURL]], "still owed to the server")

        let withServer = try setup.replay([setup.server.baseURL])
        #expect(withServer.exitStatus(timeout: 60) == 0)
        let received = try #require(setup.server.requests().first)
        #expect(received.body == end, "the very end the file got, same sequence")
        #expect(received.path?.hasSuffix("/end") == true)
        #expect(setup.owed.isEmpty && !FileManager.default.fileExists(atPath: setup.stateFilePath))
    }

    @Test func recoverListsTheLeftoverThenEndsItThroughTheSinkGiven() throws {
        let setup = try Setup()
        try setup.leaveActivityBehind(sinks: ["stdout", setup.server.baseURL])

        let listed = try setup.recover(["--list"])
        #expect(listed.exitStatus(timeout: 20) == 0)
        #expect(listed.outputLines == [
            #"{"activity":"run-1","lastEvent":"update","lastSequence":5,"owedTo":["stdout","\#(setup.server.baseURL)"],"stateFile":"\#(setup.stateFilePath)"}"#,
        ])
        #expect(listed.log.contains("1 leftover in \(setup.state)/activities"))
        #expect(setup.owed == [["stdout", setup.server.baseURL]], "--list changes nothing")

        let withoutSinks = try setup.recover([])
        #expect(withoutSinks.exitStatus(timeout: 20) == 75)
        #expect(withoutSinks.log.contains("run-1 (end #6) still owed to stdout, \(setup.server.baseURL) in \(setup.stateFilePath)"))
        #expect(withoutSinks.log.contains("1 end is still owed"))

        let throughServer = try setup.recover(["--sink", setup.server.baseURL])
        #expect(throughServer.exitStatus(timeout: 30) == 75, "stdout still owes it")
        let received = try #require(setup.server.requests().first)
        #expect(Self.field("sequence", received.body) == "6" && Self.field("reason", received.body) == "end:recovered")
        #expect(setup.owed == [["stdout"]])

        let throughStdout = try setup.recover(["--sink", "stdout"])
        #expect(throughStdout.exitStatus(timeout: 30) == 0)
        #expect(throughStdout.outputLines == [try #require(received.body)], "the same end, same sequence")
        #expect(!FileManager.default.fileExists(atPath: setup.stateFilePath))
        #expect(throughStdout.log.contains("every leftover ended"))

        let nothing = try setup.recover(["--list"])
        #expect(nothing.exitStatus(timeout: 20) == 0)
        #expect(nothing.output.isEmpty && nothing.log.contains("0 leftovers"))
        #expect(setup.server.requests().count == 1)
    }

    @Test func aFileSinkGetsItsEndFromARunNotWritingIt() throws {
        let setup = try Setup()
        let fileB = setup.directory.path("b.ndjson")
        try setup.leaveActivityBehind(sinks: ["file:\(setup.fileA)", "file:\(fileB)"])
        let run = try setup.replay(["stdout"])
        #expect(run.exitStatus(timeout: 60) == 0)
        let a = try String(contentsOfFile: setup.fileA, encoding: .utf8)
        let b = try String(contentsOfFile: fileB, encoding: .utf8)
        #expect(a == b && a.contains(#""sequence":6,"#) && a.contains("end:recovered") && a.split(separator: "\n").count == 1)
        #expect(!run.output.contains("end:recovered"), "stdout never had the activity")
        #expect(!FileManager.default.fileExists(atPath: setup.stateFilePath))
    }

    @Test func aStateFileInUseIsNotALeftover() throws {
        let setup = try Setup()
        let running = try BridgeProcess(["replay", "--speed", "1", "--state-dir", setup.state, "--sink", "stdout", setup.trace])
        #expect(running.wait(timeout: 20) { running.output.contains("\"reason\":\"start\"") })
        let listed = try setup.recover(["--list"])
        #expect(listed.exitStatus(timeout: 20) == 0)
        #expect(listed.output.isEmpty)
        #expect(listed.log.contains("is in use by another hrbridge (pid \(running.process.processIdentifier))"))
        let ended = try setup.recover(["--sink", "stdout"])
        #expect(ended.exitStatus(timeout: 20) == 75)
        #expect(ended.output.isEmpty)
        running.send(SIGTERM)
        #expect(running.exitStatus(timeout: 30) == 143)
    }
}
