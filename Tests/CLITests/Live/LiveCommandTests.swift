import BusTestSupport
import DBus
import Foundation
import Sensors
import Testing
import TestSupport
import Trace

/// `hrbridge scan` and `record`, and how `run` reports unusable Bluetooth, as a user runs them:
/// the built binary, its system bus pointed (DBUS_SYSTEM_BUS_ADDRESS) at a private bus with the
/// fake bluetoothd on it.
@Suite(.serialized, .timeLimit(.minutes(2))) struct LiveCommandTests {
    static func hrbridge(_ arguments: [String], on bus: PrivateBus) throws -> FinishedBridge {
        try FinishedBridge(arguments, environment: bus.environment)
    }

    @Test func scanListsTheStrapAsJSON() throws {
        let fake = try FakeStrapBus()
        let result = try Self.hrbridge(["scan", "--timeout", "0.5", "--json"], on: fake.bus)
        #expect(result.status == 0, "\(result.log)")
        #expect(result.output == #"{"address":"F1:5A:17:00:00:01","name":"HRM-Sim 1","rssi":-79,"battery":null,"kind":"heart rate"}"# + "\n")
        fake.stop()
    }

    @Test func scanTellsAStrapFromAFootPod() throws {
        let fake = try FakeStrapBus(["--straps", "\(FakeStrapBus.strap)=HRM-Sim 1,F1:5A:17:00:00:02=RSC-Sim 2=rsc"])
        let result = try Self.hrbridge(["scan", "--timeout", "0.5", "--json"], on: fake.bus)
        #expect(result.status == 0, "\(result.log)")
        #expect(Set(result.output.split(separator: "\n")) == [
            #"{"address":"F1:5A:17:00:00:01","name":"HRM-Sim 1","rssi":-79,"battery":null,"kind":"heart rate"}"#,
            #"{"address":"F1:5A:17:00:00:02","name":"RSC-Sim 2","rssi":-79,"battery":null,"kind":"running speed and cadence"}"#,
        ])
        fake.stop()
    }

    @Test func scanExplainsEachWayBluetoothIsUnusable() async throws {
        let bus = try PrivateBus()
        var result = try Self.hrbridge(["scan", "--timeout", "0.2"], on: bus)
        #expect(result.status == 69)
        #expect(result.log.contains("bluetoothd is not running") && result.log.contains("systemctl start bluetooth"), "\(result.log)")

        let fake = try FakeStrapBus(bus: bus)
        try await fake.control("SetPowered", .boolean(false))
        result = try Self.hrbridge(["scan", "--timeout", "0.2"], on: bus)
        #expect(result.status == 69)
        #expect(result.log.contains("adapter hci0 is off") && result.log.contains("bluetoothctl power on"), "\(result.log)")

        try await fake.control("RemoveAdapter")
        result = try Self.hrbridge(["scan", "--timeout", "0.2"], on: bus)
        #expect(result.status == 69)
        #expect(result.log.contains("no Bluetooth adapter found"), "\(result.log)")

        fake.stop()
        let withoutStrap = try FakeStrapBus(["--uuids", "180f"], bus: bus) // a device, but no Heart Rate Service
        result = try Self.hrbridge(["scan", "--timeout", "0.2"], on: bus)
        #expect(result.status == 69)
        #expect(result.log.contains("no heart-rate strap nor distance sensor found") && result.log.contains("wake the strap"), "\(result.log)")
        withoutStrap.stop()
    }

    @Test func permissionDeniedNamesTheBluetoothGroup() throws {
        let state = try TemporaryDirectory()
        let fake = try FakeStrapBus(bus: try PrivateBus(denyingSendsTo: "org.bluez"))
        for command in [["scan", "--timeout", "0.2"], ["run", "--state-dir", state.url.path], ["record", "-o", state.path("r.trace")]] {
            let result = try Self.hrbridge(command, on: fake.bus)
            #expect(result.status == 69, "\(command)")
            #expect(result.log.contains("permission denied") && result.log.contains("usermod -aG bluetooth"), "\(result.log)")
            #expect(result.output.isEmpty, "nothing started, so nothing ended")
        }
        fake.stop()
    }

    @Test func recordWritesTheTraceOnly() async throws {
        let fake = try FakeStrapBus(["--interval", "10", "--count", "25", "--no-acquire"])
        let directory = try TemporaryDirectory()
        let tracePath = directory.path("record.trace")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: FakeStrapBus.binary)
        process.arguments = ["record", "--device", "HRM-Sim 1", "-o", tracePath]
        process.environment = fake.bus.environment
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        // Wait (with a deadline) until the strap has sent everything, then stop the recorder.
        let deadline = Date().addingTimeInterval(20)
        while try await fake.sent().count < 25, Date() < deadline {
            try await Task.sleep(for: .milliseconds(50))
        }
        try await Task.sleep(for: .milliseconds(200))
        kill(process.processIdentifier, SIGTERM)
        let printed = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        #expect(printed.isEmpty, "record prints nothing")
        let trace = try RecordedTrace(path: tracePath)
        #expect(trace.rates == Array(1...25))
        #expect(trace.header.name == "HRM-Sim 1")
        #expect(trace.events.last?.kind == .disconnected(reason: "stopped"))
        fake.stop()
    }

    @Test func recordWritesATraceForEachStrap() async throws {
        let second = "F1:5A:17:00:00:02"
        let fake = try FakeStrapBus(["--interval", "10", "--count", "20", "--straps", "\(FakeStrapBus.strap)=HRM-Sim 1,\(second)=HRM-Sim 2"])
        let directory = try TemporaryDirectory()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: FakeStrapBus.binary)
        process.arguments = ["record", "--device", FakeStrapBus.strap, "--device", "HRM-Sim 2", "-o", directory.path("today.trace")]
        process.environment = fake.bus.environment
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline {
            let (one, two) = (try await fake.sent(FakeStrapBus.strap).count, try await fake.sent(second).count)
            if one >= 20, two >= 20 { break }
            try await Task.sleep(for: .milliseconds(50))
        }
        try await Task.sleep(for: .milliseconds(200))
        kill(process.processIdentifier, SIGTERM)
        let status = try await offThePool {
            process.waitUntilExit()
            return process.terminationStatus
        }
        #expect(status == 0)
        let one = try RecordedTrace(path: directory.path("today.F1-5A-17-00-00-01.trace"))
        let two = try RecordedTrace(path: directory.path("today.HRM-Sim-2.trace"))
        #expect(one.header.address == FakeStrapBus.strap && one.rates == Array(1...20))
        #expect(two.header.name == "HRM-Sim 2" && two.rates == Array(1...20))
        #expect(!FileManager.default.fileExists(atPath: directory.path("today.trace")))
        fake.stop()
    }
}
