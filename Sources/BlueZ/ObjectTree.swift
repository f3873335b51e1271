import DBus
import Sensors

/// A mirror of BlueZ's object tree, `path → interface → property → value`, fed by
/// GetManagedObjects, InterfacesAdded/Removed and PropertiesChanged. Pure: no bus, no clock,
/// so that every transition is a table test. Everything else reads this instead of asking D-Bus.
public struct ObjectTree: Sendable {
    public typealias Properties = [String: BusValue]
    public private(set) var objects: [String: [String: Properties]] = [:]

    public init() {}

    /// Replaces everything with a GetManagedObjects reply (`a{oa{sa{sv}}}`).
    public mutating func replaceAll(with managedObjects: BusValue) {
        objects = [:]
        for (path, interfaces) in managedObjects.stringKeyedDictionary ?? [:] {
            addInterfaces(at: path, interfaces)
        }
    }

    /// InterfacesAdded: (`o`, `a{sa{sv}}`). Merges, so a repeat (our snapshot raced the
    /// signal) is harmless.
    public mutating func addInterfaces(at path: String, _ interfaces: BusValue) {
        for (interface, properties) in interfaces.stringKeyedDictionary ?? [:] {
            let values = properties.stringKeyedDictionary ?? [:]
            objects[path, default: [:]][interface, default: [:]].merge(values) { _, new in new }
        }
    }

    /// InterfacesRemoved. Removing an adapter or device also drops what lies below it:
    /// bluetoothd does not always announce the children (a crash, an unplugged dongle).
    public mutating func removeInterfaces(at path: String, _ interfaces: [String]) {
        guard var object = objects[path] else { return }
        for interface in interfaces { object.removeValue(forKey: interface) }
        if interfaces.contains(BlueZNames.adapter) || interfaces.contains(BlueZNames.device) {
            removeDescendants(of: path)
        }
        objects[path] = object.isEmpty ? nil : object
    }

    /// PropertiesChanged on an interface we know; ignored otherwise (it would be a partial object).
    public mutating func changeProperties(at path: String, interface: String, changed: Properties, invalidated: [String]) {
        guard objects[path]?[interface] != nil else { return }
        objects[path]![interface]!.merge(changed) { _, new in new }
        for name in invalidated { objects[path]![interface]!.removeValue(forKey: name) }
    }

    public mutating func removeAll() { objects = [:] }

    private mutating func removeDescendants(of path: String) {
        let prefix = path + "/"
        for key in objects.keys where key.hasPrefix(prefix) { objects.removeValue(forKey: key) }
    }

    // MARK: - Queries

    public func properties(at path: String, _ interface: String) -> Properties? { objects[path]?[interface] }

    public var adapters: [Adapter1] {
        objects.compactMap { path, interfaces in interfaces[BlueZNames.adapter].map { Adapter1(path: path, properties: $0) } }
            .sorted { $0.path < $1.path }
    }

    public var devices: [Device1] {
        objects.compactMap { path, interfaces in interfaces[BlueZNames.device].map { Device1(path: path, properties: $0) } }
            .sorted { $0.path < $1.path }
    }

    public func adapter(at path: String) -> Adapter1? {
        properties(at: path, BlueZNames.adapter).map { Adapter1(path: path, properties: $0) }
    }

    public func device(at path: String) -> Device1? {
        properties(at: path, BlueZNames.device).map { Device1(path: path, properties: $0) }
    }

    /// A device by Bluetooth address (case-insensitive), on any adapter.
    public func device(address: String) -> Device1? {
        devices.first { $0.address?.uppercased() == address.uppercased() }
    }

    public func services(of devicePath: String) -> [GattService1] {
        objects(with: BlueZNames.gattService, whose: "Device", is: devicePath, as: GattService1.init)
    }

    public func characteristics(of servicePath: String) -> [GattCharacteristic1] {
        objects(with: BlueZNames.gattCharacteristic, whose: "Service", is: servicePath, as: GattCharacteristic1.init)
    }

    /// GATT objects point at their parent by a property (`Device`, `Service`), not by path shape.
    private func objects<View>(with interface: String, whose parentProperty: String, is parent: String,
                               as make: (String, Properties) -> View) -> [View] {
        objects.keys.sorted().compactMap { path in
            guard let properties = objects[path]?[interface], properties[parentProperty]?.string == parent else { return nil }
            return make(path, properties)
        }
    }

    public func characteristic(at path: String) -> GattCharacteristic1? {
        properties(at: path, BlueZNames.gattCharacteristic).map { GattCharacteristic1(path: path, properties: $0) }
    }

    /// The characteristic with `uuid` in the device's service `service`, found by UUID every
    /// time (handles and paths change when a strap's GATT cache is rebuilt).
    public func characteristic(_ uuid: BluetoothUUID, inService service: BluetoothUUID, ofDevice devicePath: String) -> GattCharacteristic1? {
        for candidate in services(of: devicePath) where candidate.uuid == service {
            if let found = characteristics(of: candidate.path).first(where: { $0.uuid == uuid }) { return found }
        }
        return nil
    }

    /// Battery1.Percentage, which bluetoothd offers for connected devices with a battery service.
    public func batteryPercentage(ofDevice path: String) -> UInt8? {
        properties(at: path, BlueZNames.battery)?["Percentage"]?.integer.flatMap { UInt8(exactly: $0) }
    }
}
