import DBus
import Sensors

/// org.bluez.Device1 (bluez doc/org.bluez.Device.rst).
public struct Device1: Sendable, Equatable {
    public let path: String
    public let properties: ObjectTree.Properties

    // MARK: PROPERTIES
    public var address: String? { properties["Address"]?.string }
    /// Alias falls back to Name (or the address) in bluetoothd, so prefer it.
    public var name: String? { properties["Alias"]?.string ?? properties["Name"]?.string }
    public var adapterPath: String? { properties["Adapter"]?.string }
    /// Present only while the device advertises.
    public var rssi: Int16? { properties["RSSI"]?.integer.flatMap { Int16(exactly: $0) } }
    public var uuids: [BluetoothUUID] { (properties["UUIDs"]?.strings ?? []).compactMap(BluetoothUUID.init) }
    /// ServiceData: the advertised service data by service UUID (a fitness machine's type, FTMS §3.1).
    public var serviceData: [BluetoothUUID: [UInt8]] {
        var data: [BluetoothUUID: [UInt8]] = [:]
        for (key, value) in properties["ServiceData"]?.stringKeyedDictionary ?? [:] {
            if let uuid = BluetoothUUID(key), let bytes = value.bytes { data[uuid] = bytes }
        }
        return data
    }
    /// The link is up. ServicesResolved counts too: bluetoothd (5.66 to at least 5.82) can leave
    /// Connected false for a whole connection. Its ATT socket callback marks the LE link up without
    /// a signal; when the kernel's Device Connected event comes after it (under load), the event
    /// finds the link already up and signals nothing, so only ServicesResolved turns true. Both
    /// fall to false when the link drops.
    public var connected: Bool { properties["Connected"]?.bool == true || servicesResolved }
    public var servicesResolved: Bool { properties["ServicesResolved"]?.bool ?? false }

    public var advertisesHeartRate: Bool { uuids.contains(.heartRateService) }

    // MARK: METHODS
    /// bluetoothd gives up on an LE connection by itself after about 20 s; wait a little longer.
    public static let connectTimeout: Duration = .seconds(30)

    public func connect(on bus: BlueZBus) async throws(BusError) {
        try await bus.call(path, BlueZNames.device, "Connect", timeout: Self.connectTimeout)
    }

    public func disconnect(on bus: BlueZBus, timeout: Duration = BlueZBus.quickTimeout) async throws(BusError) {
        try await bus.call(path, BlueZNames.device, "Disconnect", timeout: timeout)
    }

    /// Disconnect, sent without waiting for bluetoothd's answer: it disconnects after its own 2 s
    /// grace for the device's profiles (src/device.c's DISCONNECT_TIMER) and answers only then,
    /// whether or not the caller is still on the bus. For an exit, which should not wait that out.
    public func requestDisconnect(on bus: BlueZBus) async throws(BusError) {
        try await bus.send(path, BlueZNames.device, "Disconnect")
    }
}
