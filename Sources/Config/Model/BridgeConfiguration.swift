import Forwarding

/// Everything in a configuration file, validated.
public struct BridgeConfiguration: Sendable, Equatable {
    public var straps: [StrapConfiguration]
    /// The shared settings objects (`"apns": {…}`, the team's key), by name: present when a strap has
    /// a sink of a kind that uses it.
    public var shared: [String: SinkValues]
    public var http: HTTPSettings
}
