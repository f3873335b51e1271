/// Which sensor a link is for (a strap, a foot pod, a bike sensor), as the command line and the
/// configuration name it: one type from the flags and the file to the link, which matches it
/// against BlueZ's devices on every attempt (`BlueZ`), never remembering a path: a re-added adapter
/// or a restarted bluetoothd gives the same sensor a new path.
public enum SensorSelector: Sendable, Hashable, CustomStringConvertible {
    /// `AA:BB:CC:DD:EE:FF`, upper case.
    case address(String)
    /// The advertised name, exactly.
    case name(String)
    /// The first device that advertises the Heart Rate Service.
    case anyHeartRateStrap

    /// `AA:BB:CC:DD:EE:FF` (any case) is an address; anything else a name.
    public init(_ text: String) {
        let parts = text.split(separator: ":")
        let isAddress = parts.count == 6 && parts.allSatisfy { $0.count == 2 && $0.allSatisfy(\.isHexDigit) }
        self = isAddress ? .address(text.uppercased()) : .name(text)
    }

    public var description: String {
        switch self {
        case let .address(address): address
        case let .name(name): "'\(name)'"
        case .anyHeartRateStrap: "any heart-rate strap"
        }
    }
}
