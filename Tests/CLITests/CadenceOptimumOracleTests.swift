import Foundation
import TestSupport
import Testing
@testable import CLI

/// `evaluate --optimum` against `shared/tools/oracle/oracle.py` itself (numpy, in the virtual
/// environment `scripts/install-deps test` makes): the port must give the oracle's figures.
@Suite(.timeLimit(.minutes(1))) struct CadenceOptimumOracleTests {
    static let python = packageRoot.appendingPathComponent(".build/test-python/bin/python").path
    static let oracle = packageRoot.deletingLastPathComponent().appendingPathComponent("shared/tools/oracle/oracle.py").path

    @Test(arguments: ["pri_treadmill_12km", "tcxparser_fr410", "ap_garmin_fenix_5_run"])
    func theOptimumIsTheOraclesOnEverySharedRecording(recording: String) throws {
        try #require(FileManager.default.isExecutableFile(atPath: Self.python), "no \(Self.python): run scripts/install-deps test")
        let csv = recordingsDirectory.appendingPathComponent("\(recording).hr.csv").path
        let oracleOutput = try runTool(Self.python, [Self.oracle, csv, "--budgets", "30,60,90", "--targets", ""])
        let expected = try #require(try JSONSerialization.jsonObject(with: Data(oracleOutput.utf8)) as? [String: Any])
        let budgets = try #require(expected["budgets"] as? [String: [String: Any]])

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
