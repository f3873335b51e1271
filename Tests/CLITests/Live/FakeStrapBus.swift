import BusTestSupport
import DBus
import Foundation
import Sensors
import Trace

/// A private bus with the fake bluetoothd on it, as the built binary sees it through
/// DBUS_SYSTEM_BUS_ADDRESS, and the fake's fault switchboard.
struct FakeStrapBus {
    static let strap = "F1:5A:17:00:00:01"
    static let binary = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("hrbridge").path

    let bus: PrivateBus
    let fake: ChildProcess

    init(_ arguments: [String] = [], bus: PrivateBus? = nil) throws {
        self.bus = try bus ?? PrivateBus()
        fake = try ChildProcess(Peers.python, [Peers.path("fake_bluez.py")] + arguments, environment: self.bus.environment).start()
    }

    @discardableResult
    func control(_ method: String, _ arguments: BusValue...) async throws -> [BusValue] {
        let connection = try await BusConnection.connect(to: .address(bus.address))
        defer { Task { await connection.close() } }
        return try await connection.call(BusMethodCall(destination: "hr.test.FakeBlueZ", path: "/hrtest", interface: "hr.test.FakeBlueZ",
                                                       method: method, arguments: arguments))
    }

    /// The rates the strap has sent so far (they count up from 1).
    func sent(_ strap: String = Self.strap) async throws -> [Int64] {
        try await control("Sent", .string(strap)).first?.array?.compactMap(\.integer) ?? []
    }

    func calls(_ method: String) async throws -> Int64 {
        try await control("Calls", .string(method)).first?.integer ?? -1
    }

    func stop() { fake.stop() }
}

/// The built binary run to its end: its exit status, stdout and stderr.
struct FinishedBridge {
    var status: Int32
    var output: String
    var log: String

    init(_ arguments: [String], environment: [String: String] = ProcessInfo.processInfo.environment) throws {
        let finished = try FinishedProcess(FakeStrapBus.binary, arguments, environment: environment)
        status = finished.status
        output = finished.output
        log = finished.error
    }
}

/// The rates and events of a recorded trace.
struct RecordedTrace {
    var header: TraceHeader
    var events: [SensorEvent] = []

    init(path: String) throws {
        let reader = try TraceReader(path: path)
        while let event = try reader.next() { events.append(event) }
        header = reader.header
    }

    var rates: [Int64] { Self.rates(of: events) }

    /// The rates of the heart-rate values among `events`.
    static func rates(of events: [SensorEvent]) -> [Int64] {
        events.compactMap { event in
            guard case let .notification(_, value) = event.kind else { return nil }
            return (try? HeartRateMeasurement(parsing: value)).map { Int64($0.beatsPerMinute) }
        }
    }
}
