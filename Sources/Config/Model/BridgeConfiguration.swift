/// Everything in a configuration file, validated.
public struct BridgeConfiguration: Sendable, Equatable {
    public var straps: [StrapConfiguration]
    /// Present when any strap has an apns sink.
    public var apns: APNsSettings?
    public var http: HTTPSettings
}
