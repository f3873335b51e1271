import Platform
import Sensors

/// One MQTT message to publish, always at QoS 1 (the broker acknowledges it; a lost connection
/// means sending it again). What a delivery holds and the spool keeps; nothing secret.
public struct MQTTPublication: Sendable, Equatable, Decodable {
    public var topic: String
    public var payload: [UInt8]
    public var retain: Bool
    /// Wall-clock time after which the message means nothing. MQTT 5 sends the rest as the message
    /// expiry interval, and the broker drops it then, retained or not, even if hrbridge is gone. A
    /// retained message is moreover replaced by an empty one then (subscribers see the state go,
    /// also on a 3.1.1 broker). Already past when it is sent: an update is skipped, a retained
    /// state goes straight to empty.
    public var expires: Timestamp?

    public init(topic: String, payload: [UInt8], retain: Bool, expires: Timestamp? = nil) {
        self.topic = topic
        self.payload = payload
        self.retain = retain
        self.expires = expires
    }
}

extension MQTTPublication {
    enum CodingKeys: String, CodingKey {
        case topic, payload, retain, expires
    }

    /// `expires` as whole microseconds since the Unix epoch, as `write(to:)` keeps it.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        topic = try container.decode(String.self, forKey: .topic)
        payload = try container.decode([UInt8].self, forKey: .payload)
        retain = try container.decode(Bool.self, forKey: .retain)
        expires = try container.decodeIfPresent(Int64.self, forKey: .expires).map(Timestamp.init(microsecondsSinceUnixEpoch:))
    }

    /// `{"expires":…,"payload":[…],"retain":…,"topic":…}`, as a spool line keeps it.
    func write(to json: inout JSONBytes) {
        json.beginObject()
        if let expires {
            json.key("expires")
            json.integer(expires.microsecondsSinceUnixEpoch)
        }
        json.key("payload")
        json.byteArray(payload)
        json.key("retain")
        json.bool(retain)
        json.key("topic")
        json.string(topic, escapingSlash: false)
        json.endObject()
    }
}

/// What one delivery of the MQTT sink publishes, in order: an update's retained state and its entry
/// in the update stream, or the strap's retained channel id. Spooled as the list itself.
public struct MQTTPublications: DeliveryMessage {
    public static let spoolKey = "publications"

    public var publications: [MQTTPublication]

    public init(_ publications: [MQTTPublication]) {
        self.publications = publications
    }

    public init(from decoder: any Decoder) throws {
        publications = try decoder.singleValueContainer().decode([MQTTPublication].self)
    }

    public func write(to json: inout JSONBytes) {
        json.array(publications) { $1.write(to: &$0) }
    }
}
