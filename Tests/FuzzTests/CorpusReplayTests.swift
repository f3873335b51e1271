import Foundation
import FuzzTargets
import Testing

/// Every committed fuzz input through its target's check, without the fuzzer: a defect once found
/// stays fixed, and a change that breaks a parser's contract on a known input fails here first.
/// Serialized: the trace and spool checks share one scratch directory, as the fuzzer runs one input at a time.
@Suite(.serialized) struct CorpusReplayTests {
    @Test(arguments: FuzzTarget.all.map(\.name))
    func everyInputKeepsTheContract(_ name: String) throws {
        let target = try #require(FuzzTarget.named(name))
        let inputs = FuzzInputs.files("Corpus", of: name) + FuzzInputs.files("Regressions", of: name)
        #expect(!FuzzInputs.files("Corpus", of: name).isEmpty, "\(name) has no seed corpus")
        for file in inputs {
            do {
                try target.check(try FuzzInputs.bytes(file))
            } catch let violation as ContractViolation {
                Issue.record("\(file.lastPathComponent): \(violation)")
            }
        }
    }

    /// A folder that names no target would never be replayed.
    @Test func everyFolderNamesATarget() {
        let names = Set(FuzzTarget.all.map(\.name))
        for kind in ["Corpus", "Regressions"] {
            for folder in FuzzInputs.folders(kind) {
                #expect(names.contains(folder), "Fuzz/\(kind)/\(folder) is no fuzz target")
            }
        }
    }

    /// scripts/fuzz runs the targets it lists (the fuzzer build cannot list them itself).
    @Test func theScriptRunsEveryTarget() throws {
        let script = try String(contentsOf: FuzzInputs.fuzzDirectory.deletingLastPathComponent().appendingPathComponent("scripts/fuzz"), encoding: .utf8)
        let line = try #require(script.split(separator: "\n").first { $0.hasPrefix("all_targets=(") })
        let names = line.dropFirst("all_targets=(".count).dropLast().split(separator: " ").map(String.init)
        #expect(names == FuzzTarget.all.map(\.name))
    }
}
