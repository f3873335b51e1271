import DBus
import Sensors

/// org.bluez.GattService1 (bluez doc/org.bluez.GattService.rst). Read-only for a client.
public struct GattService1: Sendable, Equatable {
    public let path: String
    public let properties: ObjectTree.Properties

    // MARK: PROPERTIES
    public var uuid: BluetoothUUID? { properties["UUID"]?.string.flatMap(BluetoothUUID.init) }
    public var devicePath: String? { properties["Device"]?.string }
    public var primary: Bool { properties["Primary"]?.bool ?? true }
}
