import BlueZ
import BusTestSupport
import DBus
import Foundation
import Sensors

/// A private bus with the fake bluetoothd (fake_bluez.py on python-dbusmock) and our client
/// on it, plus the fake's fault switchboard.
final class FakeBlueZ: @unchecked Sendable {
    let bus: PrivateBus
    let fake: ChildProcess
    let connection: BusConnection
    let client: BlueZClient
    static let strap = "F1:5A:17:00:00:01"

    init(_ arguments: [String] = []) async throws {
        bus = try PrivateBus()
        fake = try ChildProcess(Peers.python, [Peers.path("fake_bluez.py")] + arguments, environment: bus.environment).start()
        connection = try await BusConnection.connect(to: .address(bus.address))
        client = try await BlueZClient.start(on: connection, clock: Self.wallClock)
    }

    static let wallClock: @Sendable () -> Timestamp = {
        Timestamp(microsecondsSinceUnixEpoch: Int64(Date().timeIntervalSince1970 * 1_000_000))
    }

    @discardableResult
    func control(_ method: String, _ arguments: BusValue...) async throws -> [BusValue] {
        try await connection.call(BusMethodCall(destination: "hr.test.FakeBlueZ", path: "/hrtest", interface: "hr.test.FakeBlueZ",
                                                method: method, arguments: arguments))
    }

    func sent(_ address: String = strap) async throws -> [UInt16] {
        try await control("Sent", .string(address)).first?.array?.compactMap { $0.integer.map { UInt16($0) } } ?? []
    }

    func calls(_ method: String) async throws -> Int64 {
        try await control("Calls", .string(method)).first?.integer ?? -1
    }

    /// A link with a policy scaled for tests (short backoff, 1 s watchdog), its task and a
    /// reader for its events.
    /// `consume` runs on the link's queue before each event is recorded (a consumer's own work).
    func link(_ selector: SensorSelector = .address(strap), role: SensorRole = .strap, log: @escaping @Sendable (String) -> Void = { _ in },
              consume: @escaping @Sendable (SensorEvent) -> Void = { _ in })
        -> (link: SensorLink, task: Task<Void, any Error>, events: EventRecorder) {
        var policy = ReconnectPolicy()
        policy.backoff = [.milliseconds(50), .milliseconds(100), .milliseconds(200)]
        policy.shortBackoff = .milliseconds(20)
        policy.inProgressPatience = .milliseconds(300)
        policy.discoveryWindow = .milliseconds(500)
        policy.servicesResolvedTimeout = .seconds(3)
        policy.silenceTimeout = .seconds(1)
        let (events, continuation) = AsyncStream.makeStream(of: SensorEvent.self)
        let queue = DispatchQueue(label: "test.strap-events")
        let link = SensorLink(selector: selector, role: role, client: client, gates: AdapterGates(), policy: policy,
                             environment: LinkEnvironment(clock: Self.wallClock, random: { 0.5 }, log: log, events: queue)) {
            consume($0)
            continuation.yield($0)
        }
        let task = Task {
            defer { queue.async { continuation.finish() } } // after the last event the link queued
            try await link.run()
        }
        return (link, task, EventRecorder(events))
    }

    func stop() async {
        await connection.close()
        fake.stop()
        bus.stop()
    }
}

/// Reads a link's events and keeps them, so a test can wait for a condition over all so far.
final class EventRecorder: @unchecked Sendable {
    private let reader: StreamReader<SensorEvent>
    private(set) var events: [SensorEvent] = []

    init(_ stream: AsyncStream<SensorEvent>) { reader = StreamReader(stream) }

    /// Reads until `condition` holds over everything read (true) or the stream ends (false).
    @discardableResult
    func read(until condition: ([SensorEvent]) -> Bool, within seconds: Double = 20, _ what: String) async throws -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while !condition(events) {
            let left = deadline.timeIntervalSinceNow
            guard left > 0 else { throw TimedOut(what: what) }
            guard let event = try await reader.next(within: left, what) else { return false }
            events.append(event)
        }
        return true
    }

    /// The rates of the 0x2A37 values received (the fake sends rate n as its n-th value).
    var rates: [UInt16] {
        events.compactMap {
            guard case let .notification(_, value) = $0.kind, let measurement = try? HeartRateMeasurement(parsing: value) else { return nil }
            return measurement.beatsPerMinute
        }
    }

    var connects: Int { events.filter { $0.kind == .connected }.count }

    var disconnectReasons: [String] {
        events.compactMap { if case let .disconnected(reason) = $0.kind { reason ?? "" } else { nil } }
    }
}
