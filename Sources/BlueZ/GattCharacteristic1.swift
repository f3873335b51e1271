import DBus
import Sensors

/// org.bluez.GattCharacteristic1 (bluez doc/org.bluez.GattCharacteristic.rst).
public struct GattCharacteristic1: Sendable, Equatable {
    public let path: String
    public let properties: ObjectTree.Properties

    // MARK: PROPERTIES
    public var uuid: BluetoothUUID? { properties["UUID"]?.string.flatMap(BluetoothUUID.init) }
    public var servicePath: String? { properties["Service"]?.string }
    public var flags: [String] { properties["Flags"]?.strings ?? [] }
    public var canNotify: Bool { flags.contains("notify") || flags.contains("indicate") }
    public var notifying: Bool { properties["Notifying"]?.bool ?? false }
    /// Present (true or false) only when bluetoothd offers AcquireNotify for this characteristic.
    public var supportsAcquireNotify: Bool { properties["NotifyAcquired"] != nil }
    public var value: [UInt8]? { properties["Value"]?.bytes }

    // MARK: METHODS
    public func readValue(on bus: BlueZBus) async throws(BusError) -> [UInt8] {
        let reply = try await bus.call(path, BlueZNames.gattCharacteristic, "ReadValue", [.propertyMap([:])])
        guard let bytes = reply.first?.bytes else { throw .remote(name: "org.bluez.Error.Failed", message: "ReadValue on \(path) returned no bytes") }
        return bytes
    }

    /// Values then arrive as PropertiesChanged(Value) on this path, for this D-Bus connection's session.
    public func startNotify(on bus: BlueZBus) async throws(BusError) {
        try await bus.call(path, BlueZNames.gattCharacteristic, "StartNotify")
    }

    public func stopNotify(on bus: BlueZBus, timeout: Duration = BlueZBus.quickTimeout) async throws(BusError) {
        try await bus.call(path, BlueZNames.gattCharacteristic, "StopNotify", timeout: timeout)
    }

    /// A SOCK_SEQPACKET socket (one read = one notification) and its MTU; hung up on disconnect.
    public func acquireNotify(on bus: BlueZBus) async throws(BusError) -> (socket: UnixFileDescriptor, mtu: UInt16) {
        let reply = try await bus.call(path, BlueZNames.gattCharacteristic, "AcquireNotify", [.propertyMap([:])])
        guard let socket = reply.first?.fileDescriptor else {
            throw .remote(name: "org.bluez.Error.Failed", message: "AcquireNotify on \(path) returned no file descriptor")
        }
        let mtu = reply.count > 1 ? UInt16(clamping: reply[1].integer ?? 23) : 23
        return (socket, mtu)
    }
}
