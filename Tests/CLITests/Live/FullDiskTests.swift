import Foundation
import Testing
import TestSupport
@testable import CLI

/// A full file system under a file sink or a recorded trace (issue 15, Deliver 4), on a real 64 KiB
/// tmpfs: a clear error on stderr, the activity and the other sinks go on, and what was written
/// before stays readable (a line cut off half-way is cut back).
@Suite(.serialized, .timeLimit(.minutes(2)), .enabled(if: SmallFileSystem.canMount, "mounting a tmpfs needs root"))
struct FullDiskTests {
    /// Two minutes climbing 3 bpm a second: a start and a change every few seconds, some 40 lines.
    static func climbingTrace(in directory: TemporaryDirectory) throws -> String {
        var text = "hrbridge-trace 1 start=2024-01-01T06:00:00Z\n0 connected\n"
        for second in 0..<120 { text += "\(second * 1_000_000) notify 2a37 06\(String(format: "%02x", 60 + second % 150))\n" }
        return try directory.write("climb.trace", text)
    }

    static func lines(_ path: String) -> [String] {
        (FileManager.default.contents(atPath: path)).map { String(decoding: $0, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).map(String.init) } ?? []
    }

    @Test func aFileSinkOnAFullDiskIsLeftOutAndOwedItsEnd() throws {
        let disk = try SmallFileSystem(freeBytes: 4096)
        let directory = try TemporaryDirectory()
        let trace = try Self.climbingTrace(in: directory)
        let file = disk.path("updates.ndjson")
        let state = directory.path("state")
        let result = runHRBridge(["replay", "--speed", "1000", "--state-dir", state, "--sink", "stdout", "--sink", "file:\(file)", trace])
        #expect(result.status == .cannotCreate)
        #expect(result.log.contains("hrbridge: sink file:\(file): \(file): write failed: No space left on device; left out from now on, "
            + "the activity goes on at stdout"), "\(result.log)")
        let whole = runHRBridge(["replay", "--fast", trace]).output
        #expect(result.output == whole, "stdout got the whole activity")
        let printed = whole.split(separator: "\n").map(String.init)
        let written = Self.lines(file)
        #expect(written.last == "", "the file ends on a whole line: the half one was cut back")
        let kept = written.dropLast()
        #expect(kept.count >= 3 && kept.count < printed.count, "\(kept.count) of \(printed.count)")
        #expect(Array(kept) == Array(printed.prefix(kept.count)), "what was written before the disk filled is intact")

        // The end is owed to the file alone; once there is room, recover appends it.
        let listed = runHRBridge(["recover", "--list", "--state-dir", state])
        #expect(listed.output.contains(#""lastEvent":"end""#) && listed.output.contains(#""owedTo":["file:\#(file)"]"#), "\(listed.output)")
        try disk.makeRoom()
        let recovered = runHRBridge(["recover", "--state-dir", state])
        #expect(recovered.status == .success, "\(recovered.log)")
        #expect(Self.lines(file).dropLast().last == printed.last, "the same end (same sequence) the other sinks got")
    }

    @Test func aRecordedTraceOnAFullDiskIsCutAndTheActivityGoesOn() async throws {
        let disk = try SmallFileSystem(freeBytes: 4096)
        let fake = try FakeStrapBus(["--interval", "20"])
        let directory = try TemporaryDirectory()
        let tracePath = disk.path("run.trace")
        let run = try RunningBridge(["run", "--device", FakeStrapBus.strap, "--record", tracePath, "--state-dir", directory.path("state"),
                                     "--sink", "stdout", "--sink", "file:\(directory.path("updates.ndjson"))"],
                                    environment: fake.bus.environment, logPath: directory.path("stderr"))
        try await run.waitFor(reason: "start")
        try await run.waitFor(stderr: "\(tracePath): write failed: No space left on device; the trace holds every event before ")
        #expect(run.stderr.contains("and ends there; the activity and its sinks go on"), "\(run.stderr)")
        // The fake's rate climbs by one per sample: changes keep coming after the cut.
        let cutAt = run.updates.count
        try await run.waitFor(reason: "changed")
        try await run.waitFor(reason: "changed")
        #expect(run.updates.count >= cutAt + 2)
        let status = try await run.terminate()
        #expect(status == 73, "the cut trace is the run's failure, said last\n\(run.stderr)")
        #expect(run.updates.last?["reason"] as? String == "end:stopped")
        #expect(Self.lines(directory.path("updates.ndjson")).count == run.updates.count + 1, "the other sink got every update")
        let recorded = try RecordedTrace(path: tracePath)
        let sent = try await fake.sent()
        #expect(recorded.rates.count > 50)
        #expect(recorded.rates == Array(sent.prefix(recorded.rates.count)), "every sample up to the cut, none lost, none doubled")
        #expect(sent.count > recorded.rates.count)
        fake.stop()
    }
}
