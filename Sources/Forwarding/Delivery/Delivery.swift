import Sensors
import LiveState

/// One update turned into what a network sink will send (an HTTP request, MQTT publications): what
/// the delivery queue orders, supersedes and retries, and what the spool keeps across runs. Built
/// once, when the update arrives.
public struct Delivery: Sendable, Equatable, Codable {
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
    public var message: DeliveryMessage

    public init(activityID: String, sequence: Int, event: String, kind: Kind, urgent: Bool = false, message: DeliveryMessage) {
        self.activityID = activityID
        self.sequence = sequence
        self.event = event
        self.kind = kind
        self.urgent = urgent
        self.message = message
    }

    public init(for update: ActivityUpdate, message: DeliveryMessage) {
        self.init(activityID: update.activityID, sequence: update.sequence, event: update.event.rawValue,
                  kind: update.event == .update ? .content : .lifecycle,
                  urgent: update.priority == ActivityUpdate.immediatePriority, message: message)
    }

    public init(for update: ActivityUpdate, request: HTTPRequest) {
        self.init(for: update, message: .http(request))
    }

    /// `activity#sequence (event)`, for logs.
    public var label: String { "\(activityID)#\(sequence) (\(event))" }
}

/// What a delivery carries: one HTTP request (lifecycle server, APNs background push, Airship, FCM),
/// a Live Activity push whose token is picked at send time, a push on the strap's broadcast channel
/// (picked at send time too), or the MQTT messages one update becomes (its retained state and its
/// entry in the update stream).
public enum DeliveryMessage: Sendable, Equatable {
    case http(HTTPRequest)
    case liveActivity(LiveActivityPush)
    case broadcast(BroadcastPush)
    case mqtt([MQTTPublication])
}

extension Delivery {
    /// The spool's line keeps the key an HTTP delivery always had (`request`), so spools written by
    /// earlier versions still load; Live Activity pushes hold `liveActivity`, broadcasts `broadcast`,
    /// MQTT deliveries `publications`.
    enum CodingKeys: String, CodingKey {
        case activityID, sequence, event, kind, urgent, request, liveActivity, broadcast, publications
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        activityID = try container.decode(String.self, forKey: .activityID)
        sequence = try container.decode(Int.self, forKey: .sequence)
        event = try container.decode(String.self, forKey: .event)
        kind = try container.decode(Kind.self, forKey: .kind)
        urgent = try container.decode(Bool.self, forKey: .urgent)
        if let publications = try container.decodeIfPresent([MQTTPublication].self, forKey: .publications) {
            message = .mqtt(publications)
        } else if let push = try container.decodeIfPresent(LiveActivityPush.self, forKey: .liveActivity) {
            message = .liveActivity(push)
        } else if let push = try container.decodeIfPresent(BroadcastPush.self, forKey: .broadcast) {
            message = .broadcast(push)
        } else {
            message = .http(try container.decode(HTTPRequest.self, forKey: .request))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(activityID, forKey: .activityID)
        try container.encode(sequence, forKey: .sequence)
        try container.encode(event, forKey: .event)
        try container.encode(kind, forKey: .kind)
        try container.encode(urgent, forKey: .urgent)
        switch message {
        case let .http(request): try container.encode(request, forKey: .request)
        case let .liveActivity(push): try container.encode(push, forKey: .liveActivity)
        case let .broadcast(push): try container.encode(push, forKey: .broadcast)
        case let .mqtt(publications): try container.encode(publications, forKey: .publications)
        }
    }
}
