import Sensors

extension SensorSelector {
    /// Whether `device` is the sensor selected: matched on every attempt, never remembered.
    public func matches(_ device: Device1) -> Bool {
        switch self {
        case let .address(address): device.address?.uppercased() == address
        case let .name(name): device.name == name || device.properties["Name"]?.string == name
        case .anyHeartRateStrap: device.advertisesHeartRate
        }
    }
}
