import Foundation
import TestSupport
import Testing
@testable import CLI

/// A trace that breaks off at a corrupt line after the activity started: the replay still ends the
/// activity everywhere (end:trace-error, frozen at the last good event), then exits 65 naming the line.
@Suite struct CutShortReplayTests {
    static let trace = """
    hrbridge-trace 1 start=2024-01-01T06:00:00Z
    0 connected
    0 notify 2a37 0648
    1000000 notify 2a37 0649
    2000000 notify 2a37 064a
    3000000 notfy 2a37 064b
    4000000 notify 2a37 064c

    """

    /// The NDJSON lines as objects.
    static func updates(_ text: String) throws -> [[String: Any]] {
        try text.split(separator: "\n").map { try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] ?? [:] }
    }

    /// The last update is the end, with the new reason, at the last good event (06:00:02Z).
    static func expectEndedByTraceError(_ updates: [[String: Any]]) {
        #expect(updates.first?["reason"] as? String == "start")
        let end = updates.last ?? [:]
        #expect(end["event"] as? String == "end")
        #expect(end["reason"] as? String == "end:trace-error")
        #expect(end["priority"] as? Int == 10)
        #expect(end["timestamp"] as? Int == 1_704_088_802)
    }

    @Test(arguments: [["--fast"], ["--speed", "100"]])
    func corruptLineAfterTheStartEndsTheActivityThenExits65(pace: [String]) throws {
        let directory = try TemporaryDirectory()
        let path = try directory.write("cut.trace", Self.trace)
        let file = directory.url.appendingPathComponent("updates.ndjson").path
        let result = runHRBridge(["replay", path, "--state-dir", directory.url.path, "--sink", "stdout", "--sink", "file:\(file)"] + pace)
        #expect(result.status == .dataError)
        #expect(result.log.contains("hrbridge: \(path):6: unknown event kind 'notfy'"), "\(result.log)")
        let printed = try Self.updates(result.output)
        Self.expectEndedByTraceError(printed)
        #expect(try String(contentsOfFile: file, encoding: .utf8) == result.output, "the file sink got the same lines")
        // The end reached every sink: nothing is left in the state file for a later run to recover.
        let activities = directory.url.appendingPathComponent("activities").path
        let stateFiles = (try? FileManager.default.contentsOfDirectory(atPath: activities))?.filter { $0.hasSuffix(".json") } ?? []
        #expect(stateFiles.isEmpty, "\(stateFiles)")
    }

    @Test func pacedAndFastReplayPrintTheSameEnd() throws {
        let directory = try TemporaryDirectory()
        let path = try directory.write("cut.trace", Self.trace)
        let fast = runHRBridge(["replay", "--fast", path])
        let paced = runHRBridge(["replay", "--speed", "100", "--state-dir", directory.url.path, path])
        #expect(fast.status == .dataError && paced.status == .dataError)
        #expect(paced.output == fast.output)
    }

    /// A sink whose output fails (here a full disk) is left out; the activity goes on at the others to its
    /// usual end, and the run then exits 73 naming the sink.
    @Test(arguments: [["--fast"], ["--speed", "100"]])
    func aFailingSinkIsLeftOutAndTheActivityGoesOn(pace: [String]) throws {
        let directory = try TemporaryDirectory()
        let path = try directory.write("ok.trace", Self.trace.replacingOccurrences(of: "notfy", with: "notify"))
        let result = runHRBridge(["replay", path, "--state-dir", directory.url.path, "--sink", "file:/dev/full", "--sink", "stdout"] + pace)
        #expect(result.status == .cannotCreate)
        #expect(result.log.contains("sink file:/dev/full: /dev/full: write failed: No space left on device; left out from now on, "
            + "the activity goes on at stdout"), "\(result.log)")
        #expect(result.log.hasSuffix("hrbridge: sink file:/dev/full: /dev/full: write failed: No space left on device\n"), "said again last")
        #expect(result.output == runHRBridge(["replay", "--fast", path]).output, "stdout got the whole activity")
        if pace != ["--fast"] {
            // The failed sink missed the end: the state file keeps it owed to that sink alone (stdout has it)
            // for the next run to send again.
            let activities = directory.url.appendingPathComponent("activities")
            let stateFile = try #require(try FileManager.default.contentsOfDirectory(atPath: activities.path).first { $0.hasSuffix(".json") })
            let saved = try String(contentsOf: activities.appendingPathComponent(stateFile), encoding: .utf8)
            #expect(saved.contains("\"reason\":\"end:stopped\"") && saved.contains(#""sinks":["file:\/dev\/full"]"#), "\(saved)")
        }
    }

    @Test func corruptLineBeforeAnyStartSendsNothing() throws {
        let directory = try TemporaryDirectory()
        let path = try directory.write("early.trace", "hrbridge-trace 1 start=2024-01-01T06:00:00Z\n0 connected\n5 notfy 2a37 0648\n")
        for pace in [["--fast"], ["--speed", "100", "--state-dir", directory.url.path]] {
            let result = runHRBridge(["replay", path] + pace)
            #expect(result.status == .dataError)
            #expect(result.output.isEmpty)
            #expect(result.log.contains("hrbridge: \(path):3: unknown event kind 'notfy'"), "\(result.log)")
        }
    }
}
