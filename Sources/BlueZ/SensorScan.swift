import DBus
import Platform
import Sensors

/// `scan`'s discovery: every powered adapter scans, filtered on every sensor kind's service, for a
/// while; then each device that offers a sensor kind's service, with its battery when known.
public struct SensorSighting: Sendable {
    public var device: Device1
    public var kind: SensorKind
    public var battery: UInt8?
}

public enum SensorScanFailure: Error {
    /// The bus policy refused StartDiscovery (not in the bluetooth group, no polkit rule).
    case accessDenied
    case cannotStart(adapter: String, BusError)
}

extension BlueZClient {
    public func scanForSensors(seconds: Double) async throws(SensorScanFailure) -> [SensorSighting] {
        let adapters = tree.adapters.filter(\.powered)
        for adapter in adapters {
            try? await adapter.setDiscoveryFilter(Adapter1.sensorDiscoveryFilter(), on: bus)
            do {
                try await adapter.startDiscovery(on: bus)
            } catch where error.name == BusErrorName.accessDenied {
                throw .accessDenied
            } catch where error.name != "org.bluez.Error.InProgress" {
                throw .cannotStart(adapter: adapter.interfaceName, error)
            } catch {} // another client's discovery: ours rides on it
        }
        try? await TaskSleep.sleep(for: .seconds(seconds))
        for adapter in adapters { try? await adapter.stopDiscovery(on: bus) }
        let final = tree
        // A device's kind by the services it advertises, or offers once connected (a paired sensor
        // that stopped advertising them).
        return final.devices.compactMap { device in
            let services = device.uuids + final.services(of: device.path).map(\.uuid)
            guard let kind = SensorKind.all.first(where: { services.contains($0.service) }) else { return nil }
            return SensorSighting(device: device, kind: kind, battery: final.batteryPercentage(ofDevice: device.path))
        }
    }
}
