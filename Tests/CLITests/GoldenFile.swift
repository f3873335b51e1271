import Foundation
import Testing

/// Compares a command's output with a golden file in Fixtures; `HRBRIDGE_UPDATE_GOLDEN=1 swift test`
/// rewrites it after a deliberate change.
func expectGolden(_ output: String, _ name: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
    let url = LiveUpdateReplayTests.fixtures.appendingPathComponent(name)
    if ProcessInfo.processInfo.environment["HRBRIDGE_UPDATE_GOLDEN"] == "1" {
        try Data(output.utf8).write(to: url)
    }
    let golden = try String(contentsOf: url, encoding: .utf8)
    let firstDifference = zip(output.split(separator: "\n"), golden.split(separator: "\n")).enumerated().first { $0.element.0 != $0.element.1 }
    #expect(output == golden, "first differing line: \(firstDifference.map { "\($0.offset + 1): \($0.element.0)" } ?? "(length differs)")",
            sourceLocation: sourceLocation)
}
