import SinkVocabulary

/// Everything in a configuration file, validated.
public struct BridgeConfiguration: Sendable, Equatable {
    public var straps: [StrapConfiguration]
    /// The shared settings objects (`"apns": {…}`, the team's key), by name: present when a strap has
    /// a sink of a kind that uses it.
    public var shared: [String: SinkValues]
    public var http: HTTPSettings
    /// The HTTP listener (`listen`); nil: none, unless systemd passes a socket.
    public var listen: ListenSettings?

    /// What `run`'s flags describe is built the same way, so both take one path to their sessions.
    public init(straps: [StrapConfiguration], shared: [String: SinkValues] = [:], http: HTTPSettings = HTTPSettings(),
                listen: ListenSettings? = nil) {
        self.straps = straps
        self.shared = shared
        self.http = http
        self.listen = listen
    }
}
