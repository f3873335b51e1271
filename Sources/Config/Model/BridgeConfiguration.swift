import Forwarding

/// Everything in a configuration file, validated.
public struct BridgeConfiguration: Sendable, Equatable {
    public var straps: [StrapConfiguration]
    /// Each sink kind's shared settings (`"apns": {…}`, the team's key), by kind name: present when a
    /// strap has a sink of that kind.
    public var shared: [String: SinkValues]
    public var http: HTTPSettings
}
