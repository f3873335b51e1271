import DBus
import Sensors

/// The GATT database the peripheral serves (bluez doc/org.bluez.GattManager.rst: an object tree under
/// one root, services as GattService1, characteristics as GattCharacteristic1), and the
/// ObjectManager.GetManagedObjects answer bluetoothd reads it from. Pure: paths, UUIDs and flags.
public struct GattApplicationLayout: Sendable {
    /// What a served characteristic is for: the peripheral keys its values and subscriptions by it.
    public enum Role: String, Sendable, CaseIterable {
        case heartRateMeasurement = "heart-rate"
        case bodySensorLocation = "body-sensor-location"
        case batteryLevel = "battery"
        case manufacturerName = "manufacturer"
        case modelNumber = "model"
        case runningMeasurement = "running"
        case runningFeature = "running-feature"

        public var uuid: BluetoothUUID {
            switch self {
            case .heartRateMeasurement: .heartRateMeasurement
            case .bodySensorLocation: .bodySensorLocation
            case .batteryLevel: .batteryLevel
            case .manufacturerName: BluetoothUUID(assigned: 0x2A29)
            case .modelNumber: BluetoothUUID(assigned: 0x2A24)
            case .runningMeasurement: BluetoothUUID(assigned: 0x2A53)
            case .runningFeature: BluetoothUUID(assigned: 0x2A54)
            }
        }

        /// GattCharacteristic1's Flags. Measurements notify only (their profiles forbid reading
        /// them); the battery also notifies, as straps' do.
        public var flags: [String] {
            switch self {
            case .heartRateMeasurement, .runningMeasurement: ["notify"]
            case .batteryLevel: ["read", "notify"]
            case .bodySensorLocation, .manufacturerName, .modelNumber, .runningFeature: ["read"]
            }
        }

        public var notifies: Bool { flags.contains("notify") }
    }

    public struct Characteristic: Sendable, Equatable {
        public let path: String
        public let role: Role
        public let service: String
    }

    public struct Service: Sendable, Equatable {
        public let path: String
        public let uuid: BluetoothUUID
        public let characteristics: [Characteristic]
    }

    public let root: String
    public let services: [Service]

    /// Heart Rate 0x180D, Battery 0x180F, Device Information 0x180A, Running Speed and Cadence 0x1814,
    /// under `root`.
    public init(root: String) {
        self.root = root
        let shape: [(BluetoothUUID, [Role])] = [
            (.heartRateService, [.heartRateMeasurement, .bodySensorLocation]),
            (.batteryService, [.batteryLevel]),
            (BluetoothUUID(assigned: 0x180A), [.manufacturerName, .modelNumber]),
            (BluetoothUUID(assigned: 0x1814), [.runningMeasurement, .runningFeature]),
        ]
        services = shape.enumerated().map { index, entry in
            let path = "\(root)/service\(index)"
            return Service(path: path, uuid: entry.0, characteristics: entry.1.enumerated().map { number, role in
                Characteristic(path: "\(path)/char\(number)", role: role, service: path)
            })
        }
    }

    /// The services a central looks for in the advertisement.
    public static let advertisedServices: [BluetoothUUID] = [.heartRateService, BluetoothUUID(assigned: 0x1814)]

    public var characteristics: [Characteristic] { services.flatMap(\.characteristics) }

    public func characteristic(at path: String) -> Characteristic? { characteristics.first { $0.path == path } }

    public func characteristic(_ role: Role) -> Characteristic? { characteristics.first { $0.role == role } }

    /// GattService1's properties.
    public func properties(of service: Service) -> [String: BusValue] {
        ["UUID": .string(service.uuid.fullForm), "Primary": .boolean(true)]
    }

    /// GattCharacteristic1's properties; `value` is the last value served, if any.
    public func properties(of characteristic: Characteristic, value: [UInt8]?, notifying: Bool) -> [String: BusValue] {
        var properties: [String: BusValue] = [
            "UUID": .string(characteristic.role.uuid.fullForm),
            "Service": .objectPath(characteristic.service),
            "Flags": .strings(characteristic.role.flags),
        ]
        if let value { properties["Value"] = .bytes(value) }
        if characteristic.role.notifies { properties["Notifying"] = .boolean(notifying) }
        return properties
    }

    /// `a{oa{sa{sv}}}`: every service and characteristic below the root.
    public func managedObjects(value: (Role) -> [UInt8]?, notifying: (Role) -> Bool) -> BusValue {
        var entries: [BusDictionaryEntry] = []
        for service in services {
            entries.append(Self.object(service.path, BlueZNames.gattService, properties(of: service)))
            for characteristic in service.characteristics {
                let properties = properties(of: characteristic, value: value(characteristic.role), notifying: notifying(characteristic.role))
                entries.append(Self.object(characteristic.path, BlueZNames.gattCharacteristic, properties))
            }
        }
        return .dictionary(keySignature: "o", valueSignature: "a{sa{sv}}", entries)
    }

    /// One object's entry in a GetManagedObjects answer, with one interface.
    public static func object(_ path: String, _ interface: String, _ properties: [String: BusValue]) -> BusDictionaryEntry {
        BusDictionaryEntry(.objectPath(path), .dictionary(keySignature: "s", valueSignature: "a{sv}", [
            BusDictionaryEntry(.string(interface), .propertyMap(properties)),
        ]))
    }
}
