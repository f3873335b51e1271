import Foundation
import TestSupport
import Testing
@testable import CLI

/// `hrbridge replay` as Live Activity updates: pinned outputs, pace independence, flags.
@Suite struct LiveUpdateReplayTests {
    static let fixtures = packageRoot.appendingPathComponent("Tests/CLITests/Fixtures")
    static let dropoutTrace = fixtures.appendingPathComponent("dropouts.trace").path

    @Test func bundledTraceReplayMatchesTheGoldenFile() throws {
        let result = runHRBridge(["replay", "--fast"])
        #expect(result.status == .success)
        #expect(result.log.isEmpty)
        try expectGolden(result.output, "treadmill-12km.updates.ndjson")
    }

    @Test func dropoutTraceReplayMatchesTheGoldenFile() throws {
        let result = runHRBridge(["replay", "--fast", Self.dropoutTrace])
        #expect(result.status == .success)
        #expect(result.log == "hrbridge: \(Self.dropoutTrace):775: dropped malformed 0x2A37 value: flags promise a 16-bit rate but 0 bytes follow\n")
        try expectGolden(result.output, "dropouts.updates.ndjson")
        let reasons = result.output.split(separator: "\n").compactMap { line in
            (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["reason"] as? String
        }
        #expect(reasons.filter { $0 == "sensor-lost" }.count == 5) // silence, no contact, rate 0, disconnect, give-up gap
        #expect(reasons.filter { $0 == "sensor-back" }.count == 4)
        #expect(reasons.filter { $0 == "start" }.count == 2) // a new activity after the give-up
        #expect(reasons.contains("end:sensor-gone") && reasons.last == "end:stopped")
    }

    /// At a moderate speed the session's wall-clock timer, not the next event, wakes the engine for
    /// sensor-lost, refresh and give-up (28 minutes in about 3.4 s): still the golden bytes.
    @Test func pacedDropoutReplayWithRealTimersMatchesTheGoldenFile() throws {
        let state = try TemporaryDirectory()
        let result = runHRBridge(["replay", "--speed", "500", "--state-dir", state.url.path, Self.dropoutTrace])
        #expect(result.status == .success)
        try expectGolden(result.output, "dropouts.updates.ndjson")
    }

    @Test(arguments: [Self.dropoutTrace, BundledTraceFile.path])
    func outputIsTheSameAtAnySpeedAndRunToRun(path: String) throws {
        let state = try TemporaryDirectory()
        let fast = runHRBridge(["replay", "--fast", path])
        let again = runHRBridge(["replay", "--fast", path])
        // Paced replay runs a live session (timers, state file): it must print the very same bytes.
        let paced = runHRBridge(["replay", "--speed", "1000000", "--state-dir", state.url.path, path])
        #expect(fast.status == .success && paced.status == .success)
        #expect(fast.output.count > 1000)
        #expect(again.output == fast.output)
        #expect(paced.output == fast.output)
    }

    @Test func cadenceFlagsReachTheEngine() {
        let defaults = runHRBridge(["replay", "--fast"]).output.split(separator: "\n").count
        let finer = runHRBridge(["replay", "--fast", "--threshold", "2"]).output.split(separator: "\n").count
        let zoned = runHRBridge(["replay", "--fast", "--zones", "120,140,160"]).output.split(separator: "\n").count
        #expect(finer > defaults)
        #expect(zoned > defaults)
        let named = runHRBridge(["replay", "--fast", "--workout-name", "Tempo \"12k\"", "--label", "Block 1"])
        let first = named.output.split(separator: "\n").first.map(String.init) ?? ""
        #expect(first.contains(#""attributes":{"workoutName":"Tempo \"12k\""}"#))
        #expect(first.contains(#""intervalLabel":"Block 1""#))
        let stale = runHRBridge(["replay", "--fast", "--stale", "60", "--refresh-lead", "10"]).output
        #expect(stale.contains(#""staleDate":1704088860,"#)) // start at 06:00:00 + 60 s
    }

    @Test(arguments: [
        (["replay", "--threshold", "x"], "hrbridge: --threshold 'x' is not a number"),
        (["replay", "--threshold", "1e30"], "hrbridge: --threshold '1e30' is not a number up to 2592000"),
        (["replay", "--threshold", "2.5"], "hrbridge: --threshold '2.5' is not a whole number of bpm"),
        (["replay", "--give-up", "1e300"], "hrbridge: --give-up '1e300' is not a number up to"),
        (["evaluate", "--truth-window", "1e30", "x.trace"], "hrbridge: --truth-window '1e30' is not a number of seconds"),
        (["replay", "--refresh-lead", "130"], "hrbridge: refreshLead '130.0': expected seconds >= 0 and below staleWindow, at most 2592000"),
        (["replay", "--zones", "120,,150"], "hrbridge: --zones '120,,150' is not a list of bpm"),
        (["replay", "--silence", "0"], "hrbridge: silenceTimeout '0.0': expected seconds > 0, at most"),
        (["evaluate"], "hrbridge: missing TRACE"),
        (["plot", "x.trace"], "hrbridge: missing -o OUT.svg"),
    ])
    func badCadenceFlagsExit64(arguments: [String], message: String) {
        let result = runHRBridge(arguments)
        #expect(result.status == .usage)
        #expect(result.log.hasPrefix(message), "\(result.log)")
    }

    @Test func labelOverFourKilobytesIsRefusedUpFront() {
        let result = runHRBridge(["replay", "--fast", "--label", String(repeating: "x", count: 4000)])
        #expect(result.status == .usage)
        #expect(result.log.contains("over ActivityKit's 4096-byte limit"))
        #expect(result.output.isEmpty)
    }
}
