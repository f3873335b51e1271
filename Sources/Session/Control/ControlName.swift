import Sensors

extension SensorSelector {
    /// How `hrbridge ctl --strap` names it: the address, the advertised name, or `any`.
    public var controlName: String {
        switch self {
        case let .address(address): address
        case let .name(name): name
        case .anyHeartRateStrap: "any"
        }
    }
}
