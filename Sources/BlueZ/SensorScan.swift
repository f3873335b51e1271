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
        return final.devices.compactMap { device in
            guard let kind = final.sensorKind(of: device) else { return nil }
            return SensorSighting(device: device, kind: kind, battery: final.batteryPercentage(ofDevice: device.path))
        }
    }
}

extension ObjectTree {
    /// A device's kind by what it advertises (services, and the service data that tells kinds sharing
    /// a service apart: a treadmill from an indoor bike), or by the measurement characteristic it
    /// offers once connected (a paired sensor that stopped advertising).
    func sensorKind(of device: Device1) -> SensorKind? {
        let services = device.uuids + self.services(of: device.path).compactMap(\.uuid)
        let serviceData = device.serviceData
        return SensorKind.all.first { $0.isAdvertised(by: services, serviceData: serviceData) }
            ?? SensorKind.all.first { characteristic($0.measurementCharacteristic, inService: $0.service, ofDevice: device.path) != nil }
    }
}
