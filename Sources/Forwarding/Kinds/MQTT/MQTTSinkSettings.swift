import SinkVocabulary
/// How `--sink mqtt://…` connects and where it publishes. The password is read when the sink starts
/// and kept apart (`MQTTConnection.Credentials`), so settings can be logged and compared.
public struct MQTTSinkSettings: Sendable, Equatable {
    public var broker: MQTTBroker
    public var clientID: String
    public var username: String?
    /// Seconds between pings when idle; the broker sends the last will after 1.5 × this of silence.
    public var keepAlive: Int
    /// Verifies the broker's certificate (mqtts); nil: the system's CA store.
    public var certificateAuthorityFile: String?
    /// A client certificate and its key, for brokers that authenticate clients by certificate.
    public var clientCertificateFile: String?
    public var clientKeyFile: String?
    public var topics: MQTTTopics
    /// Subscribe to `…/<strap>/control`, `…/push-token` and `…/push-to-start-token` and apply what
    /// arrives there (the broker's ACL decides who may).
    public var acceptsControl: Bool
    /// Publish Home Assistant discovery configurations on connect.
    public var homeAssistantDiscovery: Bool

    public init(broker: MQTTBroker, clientID: String, username: String? = nil, keepAlive: Int = 60,
                certificateAuthorityFile: String? = nil, clientCertificateFile: String? = nil, clientKeyFile: String? = nil,
                topics: MQTTTopics, acceptsControl: Bool = false, homeAssistantDiscovery: Bool = false) {
        self.broker = broker
        self.clientID = clientID
        self.username = username
        self.keepAlive = keepAlive
        self.certificateAuthorityFile = certificateAuthorityFile
        self.clientCertificateFile = clientCertificateFile
        self.clientKeyFile = clientKeyFile
        self.topics = topics
        self.acceptsControl = acceptsControl
        self.homeAssistantDiscovery = homeAssistantDiscovery
    }

    /// `hrbridge-<gateway level>-<strap level>`: unique per strap and gateway, as a broker requires
    /// (a second client with the same id disconnects the first).
    public static func defaultClientID(gateway: String, topics: MQTTTopics) -> String {
        "hrbridge-\(MQTTTopics.level(gateway))-\(topics.strap)"
    }
}
