import BusTestSupport
import DBus
import Foundation
import HeartRate
import Testing
import Trace

/// `hrbridge scan`, `run` and `record` as a user runs them: the built binary, its system bus
/// pointed (DBUS_SYSTEM_BUS_ADDRESS) at a private bus with the fake bluetoothd on it.
@Suite(.serialized) struct LiveCommandTests {
    static let strap = "F1:5A:17:00:00:01"
    static let binary = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("hrbridge").path

    struct Finished {
        var status: Int32
        var output: String
        var log: String
    }

    static func hrbridge(_ arguments: [String], on bus: PrivateBus) throws -> Finished {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = arguments
        process.environment = bus.environment
        let output = Pipe()
        let log = Pipe()
        process.standardOutput = output
        process.standardError = log
        try process.run()
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        let logData = log.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Finished(status: process.terminationStatus, output: String(decoding: outputData, as: UTF8.self),
                        log: String(decoding: logData, as: UTF8.self))
    }

    static func fake(on bus: PrivateBus, _ arguments: [String] = []) throws -> ChildProcess {
        try ChildProcess(Peers.python, [Peers.path("fake_bluez.py")] + arguments, environment: bus.environment).start()
    }

    static func control(_ bus: PrivateBus, _ method: String, _ arguments: BusValue...) async throws -> [BusValue] {
        let connection = try await BusConnection.connect(to: .address(bus.address))
        defer { Task { await connection.close() } }
        return try await connection.call(BusMethodCall(destination: "hr.test.FakeBlueZ", path: "/hrtest", interface: "hr.test.FakeBlueZ",
                                                       method: method, arguments: arguments))
    }

    @Test func scanListsTheStrapAsJSON() throws {
        let bus = try PrivateBus()
        let fake = try Self.fake(on: bus)
        let result = try Self.hrbridge(["scan", "--timeout", "0.5", "--json"], on: bus)
        #expect(result.status == 0, "\(result.log)")
        #expect(result.output == #"{"address":"F1:5A:17:00:00:01","name":"HRM-Sim 1","rssi":-79,"battery":null}"# + "\n")
        fake.stop()
    }

    @Test func scanExplainsEachWayBluetoothIsUnusable() async throws {
        let bus = try PrivateBus()
        var result = try Self.hrbridge(["scan", "--timeout", "0.2"], on: bus)
        #expect(result.status == 69)
        #expect(result.log.contains("bluetoothd is not running") && result.log.contains("systemctl start bluetooth"), "\(result.log)")

        let fake = try Self.fake(on: bus)
        _ = try await Self.control(bus, "SetPowered", .boolean(false))
        result = try Self.hrbridge(["scan", "--timeout", "0.2"], on: bus)
        #expect(result.status == 69)
        #expect(result.log.contains("adapter hci0 is off") && result.log.contains("bluetoothctl power on"), "\(result.log)")

        _ = try await Self.control(bus, "RemoveAdapter")
        result = try Self.hrbridge(["scan", "--timeout", "0.2"], on: bus)
        #expect(result.status == 69)
        #expect(result.log.contains("no Bluetooth adapter found"), "\(result.log)")

        fake.stop()
        let withoutStrap = try Self.fake(on: bus, ["--uuids", "180f"]) // a device, but no Heart Rate Service
        result = try Self.hrbridge(["scan", "--timeout", "0.2"], on: bus)
        #expect(result.status == 69)
        #expect(result.log.contains("no heart-rate strap found") && result.log.contains("wake the strap"), "\(result.log)")
        withoutStrap.stop()
    }

    @Test func permissionDeniedNamesTheBluetoothGroup() throws {
        let bus = try PrivateBus(denyingSendsTo: "org.bluez")
        let fake = try Self.fake(on: bus)
        for command in [["scan", "--timeout", "0.2"], ["run"]] {
            let result = try Self.hrbridge(command, on: bus)
            #expect(result.status == 69)
            #expect(result.log.contains("permission denied") && result.log.contains("usermod -aG bluetooth"), "\(result.log)")
        }
        fake.stop()
    }

    @Test func recordWritesTheTraceOnly() async throws {
        let bus = try PrivateBus()
        let fake = try Self.fake(on: bus, ["--interval", "10", "--count", "25", "--no-acquire"])
        let tracePath = FileManager.default.temporaryDirectory.appendingPathComponent("record-\(UUID()).trace").path
        defer { try? FileManager.default.removeItem(atPath: tracePath) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.binary)
        process.arguments = ["record", "--device", "HRM-Sim 1", "-o", tracePath]
        process.environment = bus.environment
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        // Wait (with a deadline) until the strap has sent everything, then stop the recorder.
        let deadline = Date().addingTimeInterval(20)
        while try await Self.control(bus, "Sent", .string(Self.strap)).first?.array?.count ?? 0 < 25, Date() < deadline {
            try await Task.sleep(for: .milliseconds(50))
        }
        try await Task.sleep(for: .milliseconds(200))
        kill(process.processIdentifier, SIGTERM)
        let printed = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        #expect(printed.isEmpty, "record prints no samples")
        let reader = try TraceReader(path: tracePath)
        var rates: [UInt16] = []
        while let event = try reader.next() {
            if case let .notification(_, value) = event.kind { rates.append(try HeartRateMeasurement(parsing: value).beatsPerMinute) }
        }
        #expect(rates == Array(1...25))
        #expect(reader.header.name == "HRM-Sim 1")
        fake.stop()
    }

    @Test func runStreamsRecordsLosslesslyAndStopsCleanlyOnSIGTERM() async throws {
        let bus = try PrivateBus()
        let fake = try Self.fake(on: bus, ["--interval", "10"])
        let tracePath = FileManager.default.temporaryDirectory.appendingPathComponent("run-\(UUID()).trace").path
        defer { try? FileManager.default.removeItem(atPath: tracePath) }
        let run = ChildProcess(Self.binary, ["run", "--device", Self.strap, "--record", tracePath], environment: bus.environment)
        try run.start()
        #expect(run.firstLine.hasPrefix(#"{"time":"#) && run.firstLine.contains(#""bpm":1,"#), "\(run.firstLine)")
        var lines = [run.firstLine]
        while lines.count < 50, let line = run.nextLine() { lines.append(line) }
        let clock = ContinuousClock()
        let signalled = clock.now
        kill(run.process.processIdentifier, SIGTERM)
        while let line = run.nextLine() { lines.append(line) }
        run.process.waitUntilExit()
        print("hrbridge run: SIGTERM to exit took \(clock.now - signalled)")
        #expect(run.process.terminationStatus == 0)
        #expect(try await Self.control(bus, "Calls", .string("Disconnect")).first?.integer == 1)

        let sent = try await Self.control(bus, "Sent", .string(Self.strap)).first?.array?.compactMap(\.integer) ?? []
        let reader = try TraceReader(path: tracePath)
        var events: [StrapEvent] = []
        while let event = try reader.next() { events.append(event) }
        let recorded = events.compactMap { event -> Int64? in
            guard case let .notification(_, value) = event.kind else { return nil }
            return (try? HeartRateMeasurement(parsing: value)).map { Int64($0.beatsPerMinute) }
        }
        #expect(recorded == sent, "the trace holds exactly what the strap sent")
        #expect(lines.count == sent.count, "stdout has one sample per notification")
        #expect(events.first?.kind == .connected)
        #expect(events.last?.kind == .disconnected(reason: "stopped"))
        #expect(reader.header.address == Self.strap)
        fake.stop()
    }
}
