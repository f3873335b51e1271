import Foundation
import TestSupport
import Testing
@testable import CLI

/// `replay --from-now`: the same updates, moved so the trace starts at the current time.
@Suite struct ReplayFromNowTests {
    static func updates(_ output: String) throws -> [[String: Any]] {
        try output.split(separator: "\n").map { try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] ?? [:] }
    }

    @Test func theSameUpdatesStartNow() throws {
        let before = Date().timeIntervalSince1970
        let moved = runHRBridge(["replay", "--fast", "--from-now"])
        let after = Date().timeIntervalSince1970
        let recorded = runHRBridge(["replay", "--fast"])
        #expect(moved.status == .success, "\(moved.log)")
        let (shifted, original) = (try Self.updates(moved.output), try Self.updates(recorded.output))
        #expect(shifted.count == original.count && !original.isEmpty)

        let start = try #require(shifted.first?["timestamp"] as? Double)
        #expect(start >= before.rounded(.down) && start <= after + 1, "the trace starts now")
        let shift = start - (original.first?["timestamp"] as? Double ?? 0)
        for (moved, recorded) in zip(shifted, original) {
            for key in ["timestamp", "staleDate"] {
                #expect(abs((moved[key] as? Double ?? 0) - (recorded[key] as? Double ?? 0) - shift) < 1e-5, "\(key) moved by the shift")
            }
            #expect(moved["reason"] as? String == recorded["reason"] as? String)
            #expect((moved["contentState"] as? [String: Any])?["heartRate"] as? Int == (recorded["contentState"] as? [String: Any])?["heartRate"] as? Int)
        }
        #expect(shifted.first?["activity"] as? String != original.first?["activity"] as? String, "a fresh activity id")
        #expect(!moved.log.contains("network sinks"))
    }

    /// Old times to a network sink are a trap (stale at once, ids that repeat): said on stderr.
    @Test func networkSinksWithTheTracesOwnTimesAreWarnedAbout() throws {
        let directory = try TemporaryDirectory()
        let result = runHRBridge(["replay", "--fast", "--sink", "http://127.0.0.1:9/hooks", "--sink-grace", "0",
                                  "--spool", directory.path("spool")])
        #expect(result.log.contains("network sinks get the trace's own times (it starts 2024-01-01T06:00:00"), "\(result.log)")
        #expect(result.log.contains("--from-now"))
    }
}
