import BlueZ
import Config

extension BlueZ.StrapSelector {
    /// The configuration file's strap, as the link looks for it.
    public init(_ configured: Config.StrapSelector) {
        switch configured {
        case let .address(address): self = .address(address)
        case let .name(name): self = .name(name)
        }
    }
}
