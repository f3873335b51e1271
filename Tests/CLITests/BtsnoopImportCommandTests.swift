import Foundation
import Sensors
import TestSupport
import Testing
import Trace
@testable import CLI

@Suite struct BtsnoopImportCommandTests {
    @Test func severalDevicesGetAFileEachNamedAsRecordNamesThem() throws {
        var capture = BtsnoopCapture()
        capture.connected(handle: 0x40, peer: "F1:5A:17:00:00:01", at: 1_714_545_000_000_000)
        capture.connected(handle: 0x41, peer: "F1:5A:17:00:00:02", at: 1_714_545_000_500_000)
        let directory = try TemporaryDirectory()
        let path = directory.path("two.btsnoop")
        try Data(capture.bytes).write(to: URL(fileURLWithPath: path))
        let result = runHRBridge(["import", "btsnoop", path, "-o", directory.path("run.trace")])
        #expect(result.status == .success)
        #expect(result.log == """
        hrbridge: wrote 0 notifications of F1:5A:17:00:00:01 to \(directory.path("run.F1-5A-17-00-00-01.trace"))
        hrbridge: wrote 0 notifications of F1:5A:17:00:00:02 to \(directory.path("run.F1-5A-17-00-00-02.trace"))

        """)
        #expect(try TraceReader(path: directory.path("run.F1-5A-17-00-00-02.trace")).header.address == "F1:5A:17:00:00:02")
    }

    @Test func aCaptureWithoutConnectionsExits65() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("empty.btsnoop")
        try Data(BtsnoopCapture().bytes).write(to: URL(fileURLWithPath: path))
        let result = runHRBridge(["import", "btsnoop", path, "-o", directory.path("out.trace")])
        #expect(result.status == .dataError)
        #expect(result.log == "hrbridge: \(path): no LE connection in the capture (start btmon before the device connects)\n")
    }

    @Test func skippedValuesAreCountedOnStderrAndHandlesCanBeNamed() throws {
        var capture = BtsnoopCapture()
        capture.connected(handle: 0x40, peer: "F1:5A:17:00:00:01", at: 1_714_545_000_000_000)
        capture.notification(handle: 0x40, attribute: 0x002a, [0x06, 0x48], at: 1_714_545_001_000_000)
        let directory = try TemporaryDirectory()
        let path = directory.path("late.btsnoop")
        try Data(capture.bytes).write(to: URL(fileURLWithPath: path))
        let output = directory.path("late.trace")

        let unnamed = runHRBridge(["import", "btsnoop", path, "-o", output])
        #expect(unnamed.status == .success)
        #expect(unnamed.log.hasPrefix("hrbridge: \(path): skipped 1× a value of handle 0x002a from F1:5A:17:00:00:01, which no GATT discovery"))

        let named = runHRBridge(["import", "btsnoop", path, "--handle", "0x002A=2a37", "-o", output])
        #expect(named.log == "hrbridge: wrote 1 notifications of F1:5A:17:00:00:01 to \(output)\n")
        #expect(try String(contentsOfFile: output, encoding: .utf8).hasSuffix("0 connected\n1000000 notify 2a37 0648\n"))
    }

    @Test(arguments: [
        (["import", "btsnoop", "x.btsnoop", "--handle", "2a37", "-o", "o.trace"], "--handle '2a37' is not HANDLE=UUID, e.g. 0x002a=2a37"),
        (["import", "btsnoop", "x.btsnoop", "--handle", "0x10000=2a37", "-o", "o.trace"], "--handle '0x10000=2a37' is not HANDLE=UUID, e.g. 0x002a=2a37"),
        (["import", "btsnoop", "x.btsnoop", "--start", "2024-05-01T06:30:00Z", "-o", "o.trace"], "--start is for import csv; a capture has its own times and addresses"),
        (["import", "csv", "x.csv", "--handle", "0x002a=2a37", "-o", "o.trace"], "--handle is for import btsnoop"),
    ])
    func optionsOfTheOtherFormatAreUsageErrors(arguments: [String], message: String) {
        let result = runHRBridge(arguments)
        #expect(result.status == .usage)
        #expect(result.log.hasPrefix("hrbridge: \(message)\n"))
    }
}
