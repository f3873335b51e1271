import Foundation
import ProcessTestSupport
import Sensors
import LiveState
import TestSupport
import Testing
@testable import SessionState

/// The built binary, stopped by signals and killed outright, with stdout and a real lifecycle
/// server on 127.0.0.1 as sinks (docs/service.md, "Shutdown and recovery").
@Suite(.serialized, .timeLimit(.minutes(2))) struct ShutdownRecoveryTests {
    /// The documented bound on an orderly stop: --sink-grace (10 s) plus one request timeout (15 s).
    static let shutdownBound: Double = 25

    struct Setup {
        let directory: TemporaryDirectory
        let trace: String
        let server: ServerProcess
        var state: String { directory.path("state") }
        var spool: String { directory.path("spool") }

        init(answers: String = "[]") throws {
            directory = try TemporaryDirectory()
            trace = try BridgeProcess.climbingTrace(in: directory)
            server = try ServerProcess(script: "scripted_http_server.py", arguments: [answers])
        }

        func arguments(speed: String, extra: [String] = []) -> [String] {
            ["replay", "--speed", speed, "--sink", "stdout", "--sink", server.baseURL, "--state-dir", state, "--spool", spool] + extra + [trace]
        }

        var stateFilePath: String { "\(state)/activities/\(SessionKey.replay(tracePath: trace)).json" }
    }

    @Test(arguments: [(SIGTERM, Int32(143), "SIGTERM"), (SIGINT, Int32(130), "SIGINT")])
    func aSignalEndsTheActivityEverywhereAndExits(signal: Int32, status: Int32, name: String) throws {
        let setup = try Setup()
        let bridge = try BridgeProcess(setup.arguments(speed: "1"))
        #expect(bridge.wait(timeout: 20) { setup.server.requests().count >= 1 }, "the start reached the server")
        let sentAt = Date()
        bridge.send(signal)
        let exit = bridge.exitStatus(timeout: Self.shutdownBound + 5)
        #expect(exit == status)
        print("\(name): stopped in \(String(format: "%.3f", Date().timeIntervalSince(sentAt))) s")
        let lines = bridge.outputLines
        let end = BridgeProcess.json(try #require(lines.last))
        #expect(end["event"] as? String == "end")
        #expect(end["reason"] as? String == "end:stopped")
        #expect(end["priority"] as? Int == 10)
        #expect(end["sequence"] as? Int == lines.count, "one activity: sequences 1…n on stdout")
        let received = setup.server.requests()
        #expect(received.last?.body == lines.last, "the server got the very same end")
        #expect(received.last?.path?.hasSuffix("/end") == true)
        #expect(received.last?.header("activity-sequence") == String(lines.count))
        #expect(bridge.log.contains("hrbridge: \(name): ending the activity and flushing the sinks"))
        #expect(bridge.log.contains("stopped by \(name)"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: "\(setup.state)/activities").isEmpty, "state cleared on a clean stop")
    }

    @Test func theStatusLineComesOnItsOwnTimerWhileNothingIsSent() throws {
        let setup = try Setup()
        let bridge = try BridgeProcess(setup.arguments(speed: "1", extra: ["--sink-status", "0.2"]))
        let statusLines = { bridge.log.split(separator: "\n").filter { $0.contains("sink \(setup.server.baseURL) status: sent ") } }
        #expect(bridge.wait(timeout: 20) { statusLines().count >= 3 })
        #expect(bridge.outputLines.count <= 2, "the next update is seconds away: the timer, not an update, logged these")
        bridge.send(SIGTERM)
        #expect(bridge.exitStatus(timeout: Self.shutdownBound + 5) == 143)
    }

    @Test func anEndTheServerCannotTakeIsSpooledWithinTheGrace() throws {
        let setup = try Setup(answers: #"[{"status": 503}]"#)
        let bridge = try BridgeProcess(setup.arguments(speed: "1", extra: ["--sink-grace", "1"]))
        #expect(bridge.wait(timeout: 20) { bridge.output.contains("\"reason\":\"start\"") })
        bridge.send(SIGTERM)
        #expect(bridge.exitStatus(timeout: Self.shutdownBound + 5) == 143)
        let spooled = try FileManager.default.contentsOfDirectory(atPath: setup.spool)
        #expect(spooled.count == 1)
        let text = try String(contentsOfFile: "\(setup.spool)/\(spooled[0])", encoding: .utf8)
        #expect(text.contains(#""event":"end""#) && text.contains(#""event":"start""#), "start and end kept for the next run")
        #expect(bridge.log.contains("undelivered lifecycle steps spooled"))
    }

    @Test func aSecondSignalExitsAtOnceAndTheNextRunSendsThatEndAgain() throws {
        // The start is taken; the end hangs at the server, so the flush would take the whole grace.
        let setup = try Setup(answers: #"[{"status": 200}, {"status": 200, "delay": 30}]"#)
        let bridge = try BridgeProcess(setup.arguments(speed: "1", extra: ["--sink-grace", "60"]))
        #expect(bridge.wait(timeout: 20) { setup.server.requests().count == 1 })
        bridge.send(SIGTERM)
        #expect(bridge.wait(timeout: 20) { setup.server.requests().count == 2 }, "the end is being sent")
        bridge.send(SIGTERM)
        #expect(bridge.exitStatus(timeout: 10) == 75)
        #expect(bridge.log.contains("SIGTERM again: stopped without waiting for the sinks"))
        let end = try #require(bridge.outputLines.last)
        let left = try ActivityLedger(decoding: Array(try Data(contentsOf: URL(fileURLWithPath: setup.stateFilePath))))
        #expect(left.entries.map(\.lastUpdate.event) == [.end], "the end is kept until a sink confirms it")

        setup.server.stop() // the stuck server goes; a healthy one takes its address
        let healthy = try ServerProcess(script: "scripted_http_server.py", arguments: ["[]"], port: setup.server.port)
        let next = try BridgeProcess(setup.arguments(speed: "1000"))
        #expect(next.exitStatus(timeout: 60) == 0)
        #expect(next.outputLines.first == end, "the same end, same sequence: a receiver sees a repeat")
        #expect(healthy.requests().first?.body == end)
        #expect(next.log.contains("(sequence \(BridgeProcess.json(end)["sequence"] as? Int ?? 0), end:stopped)"))
    }

    @Test func afterSIGKILLTheNextRunEndsTheLeftoverFirstAndOnlyOnce() throws {
        let setup = try Setup()
        let killed = try BridgeProcess(setup.arguments(speed: "5"))
        #expect(killed.wait(timeout: 30) { killed.output.contains("\"sequence\":3,") })
        killed.send(SIGKILL)
        #expect(killed.exitStatus(timeout: 10) == 128 + SIGKILL)
        // The synced file may lag (it holds a reservation past the newest update); its unsynced
        // twin, which a killed process does not lose, has the newest update.
        let synced = try ActivityLedger(decoding: Array(try Data(contentsOf: URL(fileURLWithPath: setup.stateFilePath))))
        let left = try ActivityLedger(decoding: Array(try Data(contentsOf: URL(fileURLWithPath: setup.stateFilePath + ".newest"))))
        let leftover = try #require(left.entries.first?.lastUpdate)
        #expect(left.entries.count == 1 && leftover.event != .end)
        #expect(left.entries.first?.sinks == ["stdout", setup.server.baseURL])
        #expect(leftover.sequence >= 3)
        #expect(synced.entries.count == 1 && synced.entries[0].lastUpdate.sequence <= leftover.sequence
                && synced.entries[0].reservedThrough >= leftover.sequence)
        let beforeRecovery = setup.server.requests().count

        let next = try BridgeProcess(setup.arguments(speed: "1000"))
        #expect(next.exitStatus(timeout: 60) == 0)
        let first = BridgeProcess.json(try #require(next.outputLines.first))
        #expect(first["event"] as? String == "end")
        #expect(first["reason"] as? String == "end:recovered")
        #expect(first["activity"] as? String == leftover.activityID)
        #expect(first["sequence"] as? Int == leftover.sequence + 1)
        #expect(first["contentState"].flatMap { ($0 as? [String: Any])?["heartRate"] } == nil, "heart rate absent")
        #expect(next.outputLines.filter { $0.contains("end:recovered") }.count == 1)
        #expect(next.log.contains("was left running by an earlier run; ending it (sequence \(leftover.sequence + 1), end:recovered)"))
        let received = setup.server.requests().dropFirst(beforeRecovery)
        #expect(received.first?.body == next.outputLines.first, "the server hears the recovered end before the new run")
        #expect(received.first?.header("activity-sequence") == String(leftover.sequence + 1))
        #expect(setup.server.requests().filter { $0.body?.contains("end:recovered") == true }.count == 1)
        #expect(!FileManager.default.fileExists(atPath: setup.stateFilePath))

        let third = try BridgeProcess(setup.arguments(speed: "1000"))
        #expect(third.exitStatus(timeout: 60) == 0)
        #expect(!third.output.contains("end:recovered") && !third.log.contains("earlier run"), "recovered exactly once")
    }

    @Test func aCorruptStateFileIsMovedAsideAndTheRunGoesOn() throws {
        let setup = try Setup()
        try FileManager.default.createDirectory(atPath: "\(setup.state)/activities", withIntermediateDirectories: true)
        try Data("{\"version\":1,\"activities\":[{\"sinks\":".utf8).write(to: URL(fileURLWithPath: setup.stateFilePath))
        let bridge = try BridgeProcess(setup.arguments(speed: "1000"))
        #expect(bridge.exitStatus(timeout: 60) == 0)
        #expect(bridge.log.contains("hrbridge: \(setup.stateFilePath): unreadable activity state (not JSON"))
        #expect(bridge.log.contains("moved to \(setup.stateFilePath).corrupt-"))
        let aside = try FileManager.default.contentsOfDirectory(atPath: "\(setup.state)/activities").filter { $0.contains(".corrupt-") }
        #expect(aside.count == 1)
        let fast = try BridgeProcess(["replay", "--fast", setup.trace])
        #expect(fast.exitStatus(timeout: 60) == 0)
        #expect(bridge.output == fast.output, "the replay itself is unaffected")
    }

    @Test func aSecondRunForTheSameTraceIsRefusedWhileTheFirstRuns() throws {
        let setup = try Setup()
        let first = try BridgeProcess(setup.arguments(speed: "1"))
        #expect(first.wait(timeout: 20) { first.output.contains("\"reason\":\"start\"") })
        let second = try BridgeProcess(setup.arguments(speed: "1"))
        #expect(second.exitStatus(timeout: 20) == 75)
        #expect(second.log.contains("is in use by another hrbridge (pid \(first.process.processIdentifier))"))
        #expect(second.output.isEmpty)
        first.send(SIGTERM)
        #expect(first.exitStatus(timeout: Self.shutdownBound + 5) == 143)
    }
}
