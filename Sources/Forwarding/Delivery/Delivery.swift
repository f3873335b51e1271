import HeartRate
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
    public var request: HTTPRequest

    public init(activityID: String, sequence: Int, event: String, kind: Kind, request: HTTPRequest) {
        self.activityID = activityID
        self.sequence = sequence
        self.event = event
        self.kind = kind
        self.request = request
    }

    public init(for update: ActivityUpdate, request: HTTPRequest) {
        self.init(activityID: update.activityID, sequence: update.sequence, event: update.event.rawValue,
                  kind: update.event == .update ? .content : .lifecycle, request: request)
    }

    /// `activity#sequence (event)`, for logs.
    public var label: String { "\(activityID)#\(sequence) (\(event))" }
}
