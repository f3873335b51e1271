import Evaluation
import Foundation
import TestSupport
import Testing
@testable import CLI

/// `evaluate --optimum` against the cadence oracle's own figures for each fixture recording
/// (`Tests/Fixtures/recordings/oracle.jsonl`, the output of the team's offline oracle, oracle.py;
/// the fixtures' README says how it was made): the port must give the oracle's figures.
@Suite(.timeLimit(.minutes(1))) struct CadenceOptimumOracleTests {
    /// The oracle's line for each recording, by its name.
    static func oracleFigures(_ recording: String) throws -> [String: Any] {
        let lines = try String(contentsOf: recordingsDirectory.appendingPathComponent("oracle.jsonl"), encoding: .utf8)
        for line in lines.split(separator: "\n") {
            let figures = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            if figures["recording"] as? String == recording { return figures }
        }
        throw OracleFixtureMissing(recording: recording)
    }

    struct OracleFixtureMissing: Error { let recording: String }

    @Test(arguments: ["pri_treadmill_12km", "tcxparser_fr410", "ap_garmin_fenix_5_run"])
    func theOptimumIsTheOraclesOnEveryFixtureRecording(recording: String) throws {
        let csv = recordingsDirectory.appendingPathComponent("\(recording).hr.csv").path
        let budgets = try #require(try Self.oracleFigures(recording)["budgets"] as? [String: [String: Any]])

        let directory = try TemporaryDirectory()
        let trace = directory.path("\(recording).trace")
        #expect(runHRBridge(["import", "csv", csv, "-o", trace]).status == .success)
        let result = runHRBridge(["evaluate", "--json", "--optimum", "30,60,90", trace])
        #expect(result.status == .success, "\(result.log)")
        let document = try #require(try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any])
        let figures = try #require((document["traces"] as? [[String: Any]])?.first?["optimum"] as? [String: Any])
        let ours = try #require(figures["budgets"] as? [[String: Any]])
        for (index, budget) in ["30", "60", "90"].enumerated() {
            let theirs = try #require(budgets[budget])
            #expect(ours[index]["routineUpdates"] as? Int == theirs["routine_updates"] as? Int, "\(budget)/h")
            let share = try #require(ours[index]["withinToleranceShare"] as? Double)
            let want = try #require(theirs["within5_pct"] as? Double)
            #expect(abs(share * 100 - want) < 0.001, "\(budget)/h: \(share * 100) against the oracle's \(want)")
        }
    }

    @Test(arguments: ["abc", "30,,60", "-1", "4000"])
    func aBudgetThatIsNoCountPerHourIsAUsageError(text: String) {
        let result = runHRBridge(["evaluate", "--optimum", text, BundledTraceFile.path])
        #expect(result.status == .usage)
        #expect(result.log.contains("--optimum '\(text)'"), "\(result.log)")
    }
}
