import DBus
import Sensors

/// org.bluez.Adapter1 (bluez doc/org.bluez.Adapter.rst): a view over the mirrored
/// properties, plus the methods we use.
public struct Adapter1: Sendable, Equatable {
    public let path: String
    public let properties: ObjectTree.Properties

    // MARK: PROPERTIES
    public var address: String? { properties["Address"]?.string }
    public var name: String? { properties["Alias"]?.string ?? properties["Name"]?.string }
    public var powered: Bool { properties["Powered"]?.bool ?? false }
    /// "on", "off", "off-enabling", "on-disabling", "off-blocked" (rfkill); absent before 5.64.
    public var powerState: String? { properties["PowerState"]?.string }
    public var discovering: Bool { properties["Discovering"]?.bool ?? false }
    /// `hci0`: the last path element.
    public var interfaceName: String { String(path.split(separator: "/").last ?? "") }

    // MARK: METHODS
    /// Every kind of sensor the bridge reads, over LE: the filter bluetoothd applies to what
    /// discovery reports. One filter for all, because bluetoothd keeps one per client and a run's
    /// links share one connection: a link looking for a foot pod must not hide the strap.
    public static func sensorDiscoveryFilter() -> BusValue {
        // Kinds may share a service (the fitness machines): each service once.
        let services = SensorKind.all.map(\.service)
        return discoveryFilter(services: services.enumerated().filter { services.firstIndex(of: $0.element) == $0.offset }.map(\.element))
    }

    private static func discoveryFilter(services: [BluetoothUUID]) -> BusValue {
        .propertyMap([
            "UUIDs": .strings(services.map(\.fullForm)),
            "Transport": .string("le"),
        ])
    }

    public func setDiscoveryFilter(_ filter: BusValue, on bus: BlueZBus) async throws(BusError) {
        try await bus.call(path, BlueZNames.adapter, "SetDiscoveryFilter", [filter])
    }

    public func startDiscovery(on bus: BlueZBus) async throws(BusError) {
        try await bus.call(path, BlueZNames.adapter, "StartDiscovery")
    }

    public func stopDiscovery(on bus: BlueZBus) async throws(BusError) {
        try await bus.call(path, BlueZNames.adapter, "StopDiscovery")
    }
}
