import Foundation
import TestSupport
import Testing
@testable import CLI

/// The push budget on a recording with many dropouts: the bundled treadmill run (a real Polar
/// recording) with its contact made flaky by `scripts/lib/flaky-contact`, replayed as a person would.
@Suite struct PushBudgetReplayTests {
    /// `scripts/lib/flaky-contact` over the bundled trace: live 10–40 s, gaps 11–20 s (~90 dropouts an
    /// hour), or stuttering: live 2–8 s, gaps 11–20 s.
    private static func flakyTrace(_ arguments: [String], in directory: TemporaryDirectory) throws -> String {
        let output = directory.path("flaky-\(arguments.joined(separator: "-")).trace")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = [packageRoot.appendingPathComponent("scripts/lib/flaky-contact").path] + arguments
        process.standardInput = try FileHandle(forReadingFrom: URL(fileURLWithPath: BundledTraceFile.path))
        FileManager.default.createFile(atPath: output, contents: nil)
        process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: output))
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        return output
    }

    private struct Line {
        var activity: String
        var time: Double
        var priority: Int
        var reason: String
    }

    private static func lines(_ output: String) throws -> [Line] {
        try output.split(separator: "\n").map { text in
            let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
            return Line(activity: try #require(object["activity"] as? String), time: try #require(object["timestamp"] as? Double),
                        priority: try #require(object["priority"] as? Int), reason: try #require(object["reason"] as? String))
        }
    }

    /// The most priority-10 lines of one activity in any 60 minutes (one exactly 3600 s later is in the next).
    private static func largestUrgentInAnHour(_ lines: [Line]) -> Int {
        Dictionary(grouping: lines.filter { $0.priority == 10 }, by: \.activity).values.map { urgent in
            urgent.indices.map { index in urgent[index...].prefix { $0.time - urgent[index].time < 3600 }.count }.max() ?? 0
        }.max() ?? 0
    }

    @Test(arguments: [["10", "40", "11", "20"], ["2", "8", "11", "20"]])
    func theBudgetHoldsOnAFlakyStrap(pattern: [String]) throws {
        let directory = try TemporaryDirectory()
        let trace = try Self.flakyTrace(pattern, in: directory)
        // Before: the old rule (every loss and return at priority 10) spends far more than the budget.
        let before = try Self.lines(runHRBridge(["replay", "--fast", "--urgent-per-hour", "3600", "--flap-window", "0", trace]).output)
        #expect(Self.largestUrgentInAnHour(before) > 150)
        // The budget alone (flap rule off), and with the flap rule (the default).
        for flags in [["--flap-window", "0"], []] {
            let result = runHRBridge(["replay", "--fast"] + flags + [trace])
            #expect(result.status == .success)
            let lines = try Self.lines(result.output)
            #expect(Self.largestUrgentInAnHour(lines) <= 12, "\(flags)")
            #expect(lines.first?.priority == 10 && lines.last?.reason == "end:stopped" && lines.last?.priority == 10, "\(flags)")
            #expect(lines.contains { $0.reason == "sensor-lost" && $0.priority == 5 }, "\(flags)")

            let evaluation = runHRBridge(["evaluate", "--json"] + flags + [trace])
            let document = try #require(try JSONSerialization.jsonObject(with: Data(evaluation.output.utf8)) as? [String: Any])
            let total = try #require(document["total"] as? [String: Any])
            #expect((total["largestUrgentInAnHour"] as? Int).map { $0 <= 12 } == true, "\(flags)")
            #expect((total["demotions"] as? Int).map { $0 > 0 } == true, "\(flags)")
            // The honest state still goes out at once: each sensor-lost 10 s after the last valid sample,
            // every dropout said, every return shown (the strap's number on the phone while it is live).
            #expect((total["lossDelaysSeconds"] as? [Double])?.max() == 10, "\(flags)")
            let dropouts = try #require(total["dropouts"] as? Int)
            #expect(dropouts > 50 && total["dropoutsSaid"] as? Int == dropouts, "\(flags)")
            #expect((total["withinToleranceShare"] as? Double).map { $0 >= 0.97 } == true, "\(flags): \(total["withinToleranceShare"] ?? "")")
        }
    }
}
