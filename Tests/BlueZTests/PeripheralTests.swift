import BlueZ
import BusTestSupport
import DBus
import Foundation
import Sensors
import Testing

/// The peripheral against the fake bluetoothd: registration as bluetoothd reads it (GetManagedObjects on
/// the application and on the advertisement), a central's subscription and the values it gets,
/// re-registration after a bluetoothd restart, and the end.
@Suite(.serialized) struct PeripheralTests {
    final class Rig: @unchecked Sendable {
        let bluez: FakeBlueZ
        let connection: BusConnection
        let peripheral: BLEPeripheral
        let lines = LogLines()

        init() async throws {
            bluez = try await FakeBlueZ()
            connection = try await BusConnection.connect(to: .address(bluez.bus.address))
            var settings = BLEPeripheral.Settings(name: "Test HR")
            settings.retryDelay = .milliseconds(100)
            peripheral = try await BLEPeripheral.start(on: connection, settings: settings, log: lines.append)
        }

        func registered() async throws -> [Bool] {
            try await bluez.control("Peripheral").compactMap(\.bool)
        }

        func received(_ uuid: String) async throws -> [[UInt8]] {
            try await bluez.control("Received", .string(uuid)).first?.array?.compactMap(\.bytes) ?? []
        }

        func waitFor(_ what: String, _ condition: @escaping @Sendable () async throws -> Bool) async throws {
            try await within(10, what) {
                while try await !condition() { try await Task.sleep(for: .milliseconds(20)) }
            }
        }
    }

    final class LogLines: @unchecked Sendable {
        private let lock = NSLock()
        private var lines: [String] = []
        var append: @Sendable (String) -> Void { { [self] line in lock.withLock { lines.append(line) } } }
        var all: [String] { lock.withLock { lines } }
    }

    @Test func registersWhatBluetoothdReadsAndAdvertisesTheHeartRateService() async throws {
        let rig = try await Rig()
        #expect(try await rig.registered() == [true, true])
        let advertised = try #require(try await rig.bluez.control("Advertised").first?.stringKeyedDictionary)
        #expect(advertised["ServiceUUIDs"]?.strings?.contains(BluetoothUUID.heartRateService.fullForm) == true)
        #expect(advertised["Appearance"]?.integer == 0x0341 && advertised["LocalName"]?.string == "Test HR")
        #expect(rig.peripheral.snapshot.adapter == "hci0")
        await rig.peripheral.stop()
        #expect(try await rig.registered() == [false, false])
        let unregistered = try await [rig.bluez.calls("UnregisterApplication"), rig.bluez.calls("UnregisterAdvertisement")]
        #expect(unregistered == [1, 1])
        await rig.bluez.stop()
    }

    @Test func aSubscribedCentralGetsEachValueOnceAndNothingBeforeItSubscribed() async throws {
        let rig = try await Rig()
        rig.peripheral.notify(.heartRateMeasurement, [0x06, 70]) // nobody listens: not sent
        try await rig.bluez.control("Subscribe", .string("2a37"))
        #expect(rig.peripheral.snapshot.heartRateSubscribers == 1)
        let values: [[UInt8]] = [[0x06, 71], [0x16, 72, 0x00, 0x04], [0x01, 0x2C, 0x01]]
        for value in values { rig.peripheral.notify(.heartRateMeasurement, value) }
        try await rig.waitFor("three values") { try await rig.received("2a37").count >= 3 }
        #expect(try await rig.received("2a37") == values)
        #expect(rig.peripheral.snapshot.heartRateSent == 3)
        try await rig.bluez.control("Unsubscribe", .string("2a37"))
        rig.peripheral.notify(.heartRateMeasurement, [0x06, 73])
        #expect(rig.peripheral.snapshot.heartRateSent == 3 && rig.peripheral.snapshot.heartRateSubscribers == 0)
        await rig.peripheral.stop()
        await rig.bluez.stop()
    }

    @Test func readsAnswerKnownValuesOnly() async throws {
        let rig = try await Rig()
        #expect(try await rig.bluez.control("ReadApp", .string("2a38")).first?.bytes == [0])
        #expect(try await rig.bluez.control("ReadApp", .string("2a29")).first?.bytes == Array("hrbridge".utf8))
        await #expect(throws: BusError.self) { try await rig.bluez.control("ReadApp", .string("2a19")) }
        rig.peripheral.set(.batteryLevel, [55])
        #expect(try await rig.bluez.control("ReadApp", .string("2a19")).first?.bytes == [55])
        rig.peripheral.set(.batteryLevel, nil)
        await #expect(throws: BusError.self) { try await rig.bluez.control("ReadApp", .string("2a19")) }
        await rig.peripheral.stop()
        await rig.bluez.stop()
    }

    @Test func registersAgainWhenBluetoothdComesBack() async throws {
        let rig = try await Rig()
        try await rig.bluez.control("Subscribe", .string("2a37"))
        try await rig.bluez.control("Restart", .double(0.3))
        try await rig.waitFor("registered again") {
            let registered = try await rig.registered()
            return registered == [true, true] && rig.peripheral.snapshot.adapter != nil
        }
        #expect(rig.peripheral.snapshot.heartRateSubscribers == 0, "subscriptions end with bluetoothd")
        rig.peripheral.notify(.heartRateMeasurement, [0x06, 80])
        try await rig.bluez.control("Subscribe", .string("2a37"))
        rig.peripheral.notify(.heartRateMeasurement, [0x06, 81])
        try await rig.waitFor("the value after the restart") { try await rig.received("2a37").contains([0x06, 81]) }
        #expect(try await !rig.received("2a37").contains([0x06, 80]), "nothing sent while nobody was subscribed")
        #expect(rig.lines.all.contains { $0.contains("bluetoothd is back") })
        await rig.peripheral.stop()
        await rig.bluez.stop()
    }

    @Test func staysRegisteredThroughAnAdaptersPowerCycle() async throws {
        let rig = try await Rig()
        try await rig.bluez.control("SetPowered", .boolean(false))
        try await rig.bluez.control("SetPowered", .boolean(true))
        // Powered again: registered again, which bluetoothd (that kept both) answers AlreadyExists.
        try await rig.waitFor("another registration") { try await rig.bluez.calls("RegisterApplication") >= 2 }
        try await rig.waitFor("it to count as registered") { rig.peripheral.snapshot.adapter == "hci0" }
        #expect(try await rig.registered() == [true, true])
        #expect(rig.lines.all.contains { $0.contains("hci0 is powered again") })
        await rig.peripheral.stop()
        await rig.bluez.stop()
    }

    @Test func aConnectionThatGoesLeavesNothingRegistered() async throws {
        let rig = try await Rig()
        #expect(try await rig.registered() == [true, true])
        // No Unregister: the connection closes as a killed process's does.
        await rig.connection.close()
        try await rig.waitFor("bluetoothd to drop both") { try await rig.registered() == [false, false] }
        #expect(try await rig.bluez.calls("UnregisterApplication") == 0)
        await rig.bluez.stop()
    }
}
