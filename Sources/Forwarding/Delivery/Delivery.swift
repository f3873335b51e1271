import LiveState
import Platform
import Sensors

/// One update turned into what a network sink will send (an HTTP request, MQTT publications): what
/// the delivery queue orders, supersedes and retries, and what the spool keeps across runs. Built
/// once, when the update arrives.
public struct Delivery: Sendable, Equatable {
    /// Start and end are lifecycle steps: never dropped, merged or reordered. Updates are content:
    /// a newer one makes an older unsent one pointless.
    public enum Kind: String, Sendable, Equatable, Codable {
        case lifecycle
        case content
    }

    public var activityID: String
    public var sequence: Int
    public var event: String
    public var kind: Kind
    /// Must reach the person now (the engine gave it priority 10: start, end, a sensor lost or back
    /// within the hourly budget). A content update
    /// that supersedes an urgent one inherits this, so a dropout is not shown late because a
    /// routine update replaced its message while the server was away.
    public var urgent: Bool
    /// What the sink's kind sends; only its transmitter looks inside.
    public var message: any DeliveryMessage

    public init(activityID: String, sequence: Int, event: String, kind: Kind, urgent: Bool = false, message: any DeliveryMessage) {
        self.activityID = activityID
        self.sequence = sequence
        self.event = event
        self.kind = kind
        self.urgent = urgent
        self.message = message
    }

    public init(for update: ActivityUpdate, message: any DeliveryMessage) {
        self.init(activityID: update.activityID, sequence: update.sequence, event: update.event.rawValue,
                  kind: update.event == .update ? .content : .lifecycle,
                  urgent: update.priority == ActivityUpdate.immediatePriority, message: message)
    }

    /// `activity#sequence (event)`, for logs.
    public var label: String { "\(activityID)#\(sequence) (\(event))" }

    public static func == (left: Delivery, right: Delivery) -> Bool {
        left.activityID == right.activityID && left.sequence == right.sequence && left.event == right.event
            && left.kind == right.kind && left.urgent == right.urgent && left.message.isEqual(to: right.message)
    }
}

/// What a delivery carries, defined by the sink kind that sends it (an HTTP request, a Live
/// Activity push whose token is picked at send time, the MQTT messages one update becomes). The
/// queue, the worker and the spool carry it without looking inside, so a new kind of message is
/// a type in its kind's folder, not a case here.
public protocol DeliveryMessage: Sendable, Equatable, Decodable {
    /// The key a spooled delivery holds it under, beside the delivery's own fields: one per type.
    static var spoolKey: String { get }
    /// As the spool keeps it: an object with its keys sorted, slashes as they are (what `init(from:)` reads).
    func write(to json: inout JSONBytes)
}

extension DeliveryMessage {
    func isEqual(to other: any DeliveryMessage) -> Bool {
        (other as? Self) == self
    }

    static func decodeIfPresent(from container: KeyedDecodingContainer<Delivery.FieldKey>) throws -> (any DeliveryMessage)? {
        try container.decodeIfPresent(Self.self, forKey: Delivery.FieldKey(spoolKey))
    }
}

extension Delivery {
    /// The key a spooled delivery's field is read under.
    struct FieldKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }

        init(_ name: String) { stringValue = name }
        init?(stringValue: String) { self.init(stringValue) }
        init?(intValue: Int) { nil }

        static let activityID = FieldKey("activityID")
        static let sequence = FieldKey("sequence")
        static let event = FieldKey("event")
        static let kind = FieldKey("kind")
        static let urgent = FieldKey("urgent")
    }

    /// The spool's line: the delivery's own fields and, under its type's `spoolKey`, the message,
    /// keys sorted, slashes as they are; no newline.
    func spoolLine() -> [UInt8] {
        let strings: [(key: String, value: String)] = [("activityID", activityID), ("event", event), ("kind", kind.rawValue)]
        var members = strings.map { member in (member.key, JSONBytes.value { $0.string(member.value, escapingSlash: false) }) }
        members.append(("sequence", JSONBytes.value { $0.integer(sequence) }))
        members.append(("urgent", JSONBytes.value { $0.bool(urgent) }))
        members.append((type(of: message).spoolKey, JSONBytes.value(capacity: 512) { message.write(to: &$0) }))
        var json = JSONBytes(capacity: 1024)
        json.object(sortingKeys: members, escapingSlash: false)
        return json.bytes
    }

    /// A delivery as `spoolLine()` wrote it, its message one of `messageTypes` (the first whose key
    /// the line holds): the kinds of message its sink sends, or sent before.
    static func decoded(from decoder: any Decoder, messageTypes: [any DeliveryMessage.Type]) throws -> Delivery {
        let container = try decoder.container(keyedBy: FieldKey.self)
        for type in messageTypes {
            guard let message = try type.decodeIfPresent(from: container) else { continue }
            return Delivery(activityID: try container.decode(String.self, forKey: .activityID),
                            sequence: try container.decode(Int.self, forKey: .sequence),
                            event: try container.decode(String.self, forKey: .event),
                            kind: try container.decode(Kind.self, forKey: .kind),
                            urgent: try container.decode(Bool.self, forKey: .urgent),
                            message: message)
        }
        throw DecodingError.keyNotFound(FieldKey(messageTypes.map { $0.spoolKey }.joined(separator: " or ")), DecodingError.Context(
            codingPath: container.codingPath, debugDescription: "no message this sink sends"))
    }
}

extension JSONBytes {
    /// Bytes as a spool line keeps them (what a decoder reads back as `[UInt8]`): `[123,34]`.
    mutating func byteArray(_ values: [UInt8]) {
        array(values) { $0.integer($1) }
    }
}
