import Sensors
import LiveState

/// One update turned into the request a network sink will send: what the delivery queue orders,
/// supersedes and retries, and what the spool keeps across runs. Built once, when the update arrives.
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
    public var request: HTTPRequest

    public init(activityID: String, sequence: Int, event: String, kind: Kind, urgent: Bool = false, request: HTTPRequest) {
        self.activityID = activityID
        self.sequence = sequence
        self.event = event
        self.kind = kind
        self.urgent = urgent
        self.request = request
    }

    public init(for update: ActivityUpdate, request: HTTPRequest) {
        self.init(activityID: update.activityID, sequence: update.sequence, event: update.event.rawValue,
                  kind: update.event == .update ? .content : .lifecycle,
                  urgent: update.priority == ActivityUpdate.immediatePriority, request: request)
    }

    /// `activity#sequence (event)`, for logs.
    public var label: String { "\(activityID)#\(sequence) (\(event))" }
}
