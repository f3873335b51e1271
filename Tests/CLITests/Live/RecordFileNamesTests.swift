import BlueZ
@testable import CLI
import Sensors
import Testing
import LiveLinks

/// Where `--record FILE` / `record -o FILE` put each strap's trace.
@Suite struct RecordFileNamesTests {
    static let pro = SensorSelector.name("HRM-Pro")
    static let polar = SensorSelector.address("F1:5A:17:00:00:01")

    @Test(arguments: [
        ("today.trace", [polar], ["today.trace"]),
        ("today.trace", [polar, pro], ["today.F1-5A-17-00-00-01.trace", "today.HRM-Pro.trace"]),
        ("runs/today", [polar, pro], ["runs/today.F1-5A-17-00-00-01", "runs/today.HRM-Pro"]),
        ("runs.d/today", [polar, pro], ["runs.d/today.F1-5A-17-00-00-01", "runs.d/today.HRM-Pro"]),
        (".trace", [pro, .name("Polar H10 1A2B/3C")], [".trace.HRM-Pro", ".trace.Polar-H10-1A2B-3C"]),
        ("a.b.trace", [.anyHeartRateStrap, pro], ["a.b.any.trace", "a.b.HRM-Pro.trace"]),
    ])
    func eachStrapGetsAFile(_ path: String, _ selectors: [SensorSelector], _ expected: [String]) {
        #expect(TraceRecorder.files(path, for: selectors) == expected)
    }

    @Test func strapsThatWouldShareAFileAreRefused() {
        #expect(throws: CLIError.self) {
            try RecordFiles.check("x.trace", for: [.name("HRM Pro"), .name("HRM-Pro")], spec: RecordCommand.spec)
        }
        let result = runHRBridge(["record", "--device", "HRM Pro", "--device", "HRM/Pro", "-o", "/nonexistent/x.trace"])
        #expect(result.status == .usage)
        #expect(result.log.contains("would both be recorded to /nonexistent/x.HRM-Pro.trace"), "\(result.log)")
    }
}
