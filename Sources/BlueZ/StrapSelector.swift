import Sensors

/// Which strap a link is for. Matched against the mirror on every attempt, never remembered
/// as a path: a re-added adapter or a restarted bluetoothd gives the same strap a new path.
public enum StrapSelector: Sendable, Hashable, CustomStringConvertible {
    case address(String)
    case name(String)
    /// The first device that advertises the Heart Rate Service.
    case anyHeartRateStrap

    /// `AA:BB:CC:DD:EE:FF` is an address; anything else a name.
    public init(_ text: String) {
        let parts = text.split(separator: ":")
        let isAddress = parts.count == 6 && parts.allSatisfy { $0.count == 2 && $0.allSatisfy(\.isHexDigit) }
        self = isAddress ? .address(text.uppercased()) : .name(text)
    }

    public func matches(_ device: Device1) -> Bool {
        switch self {
        case let .address(address): device.address?.uppercased() == address
        case let .name(name): device.name == name || device.properties["Name"]?.string == name
        case .anyHeartRateStrap: device.advertisesHeartRate
        }
    }

    public var description: String {
        switch self {
        case let .address(address): address
        case let .name(name): "'\(name)'"
        case .anyHeartRateStrap: "any heart-rate strap"
        }
    }
}
