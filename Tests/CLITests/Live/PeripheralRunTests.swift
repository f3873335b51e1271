import BusTestSupport
import DBus
import Foundation
import Sensors
import Testing
import TestSupport

/// `hrbridge run --sink ble-heart-rate` on the fake bluetoothd: a central subscribed through the fake
/// gets the strap's values as they come, and the registrations end with the run, orderly or killed.
@Suite(.serialized, .timeLimit(.minutes(2))) struct PeripheralRunTests {
    static func run(_ fake: FakeStrapBus, _ directory: TemporaryDirectory) throws -> RunningBridge {
        try RunningBridge(["run", "--device", FakeStrapBus.strap, "--state-dir", directory.path("state"), "--control-bus", "none",
                           "--sink", "stdout", "--sink", "ble-heart-rate:Test HR"],
                          environment: fake.bus.environment, logPath: directory.path("stderr"))
    }

    static func registered(_ fake: FakeStrapBus) async throws -> [Bool] {
        try await fake.control("Peripheral").compactMap(\.bool)
    }

    static func until(_ what: String, _ condition: @escaping @Sendable () async throws -> Bool) async throws {
        try await within(20, what) {
            while try await !condition() { try await Task.sleep(for: .milliseconds(50)) }
        }
    }

    @Test func aSubscribedCentralGetsTheStrapsValuesInOrderAndTheRunUnregistersAtItsEnd() async throws {
        let fake = try FakeStrapBus(["--interval", "50"])
        let directory = try TemporaryDirectory()
        let run = try Self.run(fake, directory)
        try await run.waitFor(reason: "start")
        try await Self.until("the registration") { try await Self.registered(fake) == [true, true] }
        try await fake.control("Subscribe", .string("2a37"))
        try await Self.until("ten values at the central") {
            try await (fake.control("Received", .string("2a37")).first?.array?.count ?? 0) >= 10
        }
        let status = try await run.terminate()
        #expect(status == 143, "\(run.stderr)")
        #expect(try await Self.registered(fake) == [false, false])
        let unregistered = try await [fake.calls("UnregisterApplication"), fake.calls("UnregisterAdvertisement")]
        #expect(unregistered == [1, 1])
        let received = try await fake.control("Received", .string("2a37")).first?.array?.compactMap(\.bytes) ?? []
        let rates = received.compactMap { try? HeartRateMeasurement(parsing: $0).beatsPerMinute }
        let sent = try await fake.sent().map { UInt16($0) }
        // The fake's rate n is its n-th value: the central's are a run of them, none skipped or repeated.
        #expect(rates.count == received.count && rates.count >= 10 && rates == Array(rates[0] ... rates[rates.count - 1]), "\(rates)")
        #expect(Set(rates).isSubset(of: sent))
        // The fake sends the 16-bit format; below 256 it goes out as 8 bits, contact detected.
        #expect(received.first.map { $0.count == 2 && $0[0] == 0x06 } == true, "\(received.prefix(2))")
        #expect(run.stderr.contains("peripheral: advertising 'Test HR'") && run.stderr.contains("a central subscribed to heart-rate"))
        fake.stop()
    }

    @Test func aRunKilledWithSIGKILLLeavesNothingRegistered() async throws {
        let fake = try FakeStrapBus(["--interval", "50"])
        let directory = try TemporaryDirectory()
        let run = try Self.run(fake, directory)
        try await Self.until("the registration") { try await Self.registered(fake) == [true, true] }
        kill(run.process.processIdentifier, SIGKILL)
        _ = try await run.exited()
        try await Self.until("bluetoothd to drop what the run registered") { try await Self.registered(fake) == [false, false] }
        #expect(try await fake.calls("UnregisterApplication") == 0, "nothing unregistered it: the connection's end did")
        fake.stop()
    }
}
