import Foundation
import Sensors
import TestSupport
import Testing
import Trace
@testable import CLI

@Suite struct BtsnoopImportCommandTests {
    /// A real session (Fixtures/btsnoop/README.md): bluetoothd 5.66 in the realbluez VM, the HCI
    /// traffic as btmon wrote it, and what `hrbridge run --record` recorded of the same session.
    static let fixtures = packageRoot.appendingPathComponent("Tests/CLITests/Fixtures/btsnoop")
    static let capture = fixtures.appendingPathComponent("realbluez.btsnoop").path
    static let recorded = fixtures.appendingPathComponent("realbluez.run.trace").path

    func importedRealCapture(into directory: TemporaryDirectory) throws -> String {
        let output = directory.path("imported.trace")
        let result = runHRBridge(["import", "btsnoop", Self.capture, "-o", output])
        #expect(result.status == .success, "\(result.log)")
        #expect(result.log == "hrbridge: wrote 40 notifications of F1:5A:17:00:00:01 to \(output)\n")
        return output
    }

    /// The same values in the same order; the capture sees each one before hrbridge receives it
    /// through bluetoothd, by a few ms (tens, for the first after a subscription, under emulation).
    @Test func theRealCaptureHoldsTheNotificationsRunRecorded() throws {
        let directory = try TemporaryDirectory()
        let imported = try TraceReader(path: try importedRealCapture(into: directory))
        let recorded = try TraceReader(path: Self.recorded)
        let importedEvents = try imported.readAll()
        let recordedEvents = try recorded.readAll()
        let captured = importedEvents.filter(\.isNotification)
        let received = recordedEvents.filter(\.isNotification)
        #expect(captured.count == 40)
        #expect(captured.map(\.kind) == received.map(\.kind))
        let lags = zip(captured, received).map { $1.time.microsecondsSinceUnixEpoch - $0.time.microsecondsSinceUnixEpoch }
        #expect(lags.allSatisfy { (0...50_000).contains($0) }, "lags in µs: \(lags)")

        #expect(imported.header.address == "F1:5A:17:00:00:01")
        #expect(imported.header.version == 1)
        #expect(importedEvents.first == SensorEvent(time: imported.header.start, kind: .note("imported from realbluez.btsnoop")))
        #expect(importedEvents.dropFirst().first == SensorEvent(time: imported.header.start, kind: .connected))
        #expect(importedEvents.map(\.kind).filter(\.isLinkEvent) == [
            .connected, .disconnected(reason: "remote user terminated connection (0x13)"),
            .connected, .disconnected(reason: "remote user terminated connection (0x13)"),
        ])
        #expect(importedEvents.contains { $0.kind == .battery(try! BatteryLevel(percent: 55)) })
    }

    /// Both replay to the same updates but for their times, which follow the events' (the capture's
    /// connects come before bluetoothd resolves the services, its values a few ms before hrbridge
    /// has them): the updates are compared without the fields made from times (timestamps, stale
    /// and dismissal dates, the timer range, the end state's pause time, the activity id named after
    /// its start), and each update's timestamp within 100 ms.
    @Test func aCaptureIsRecognisedByItsContent() throws {
        let directory = try TemporaryDirectory()
        let named = try importedRealCapture(into: directory)
        let sniffed = runHRBridge(["import", Self.capture, "-o", directory.path("sniffed.trace")])
        #expect(sniffed.status == .success, "\(sniffed.log)")
        #expect(try String(contentsOfFile: directory.path("sniffed.trace"), encoding: .utf8) == String(contentsOfFile: named, encoding: .utf8))
    }

    @Test func theImportedAndTheRecordedTraceReplayToTheSameUpdates() throws {
        let directory = try TemporaryDirectory()
        let fromCapture = runHRBridge(["replay", "--fast", try importedRealCapture(into: directory)])
        let fromRun = runHRBridge(["replay", "--fast", Self.recorded])
        #expect(fromCapture.status == .success && fromRun.status == .success)
        let captured = try updates(fromCapture.output)
        let recorded = try updates(fromRun.output)
        #expect(captured.map(\.timeless) == recorded.map(\.timeless))
        #expect(captured.count == 8)
        #expect(zip(captured, recorded).allSatisfy { abs($0.timestamp - $1.timestamp) <= 0.1 })
    }

    struct Update {
        var timeless: NSDictionary
        var timestamp: Double
    }

    func updates(_ ndjson: String) throws -> [Update] {
        try ndjson.split(separator: "\n").map { line in
            var object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            let timestamp = try #require(object["timestamp"] as? Double)
            for key in ["timestamp", "staleDate", "dismissalDate", "activity"] { object[key] = nil }
            var content = try #require(object["contentState"] as? [String: Any])
            content["timerRange"] = nil
            content["pausedAt"] = nil
            object["contentState"] = content
            return Update(timeless: object as NSDictionary, timestamp: timestamp)
        }
    }

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

    @Test func aTruncatedCaptureExits65WithTheByteOffset() throws {
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: Self.capture)).prefix(200))
        let directory = try TemporaryDirectory()
        let path = directory.path("cut.btsnoop")
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let result = runHRBridge(["import", "btsnoop", path, "-o", directory.path("out.trace")])
        #expect(result.status == .dataError)
        #expect(result.log.hasPrefix("hrbridge: \(path): byte "))
        #expect(result.log.contains(": truncated record"))
        #expect(!FileManager.default.fileExists(atPath: directory.path("out.trace")), "nothing is written from a bad capture")
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

private extension SensorEvent {
    var isNotification: Bool {
        if case .notification = kind { return true }
        return false
    }
}

private extension SensorEvent.Kind {
    var isLinkEvent: Bool {
        switch self {
        case .connected, .disconnected: true
        default: false
        }
    }
}
