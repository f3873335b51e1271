import Forwarding
import LiveState
import Sensors

/// An activity as a control surface answers with it: what the phone shows now (from the newest
/// update sent), never a token or a sink's secret. HTTP writes it as JSON; `ctl status` as a line.
public struct ActivityState: Sendable, Equatable {
    public enum Phase: String, Sendable {
        case running
        case paused
        case ended
    }

    public var activityID: String
    /// The newest update's sequence: the next one the phone gets is this + 1.
    public var sequence: Int
    public var phase: Phase
    /// Why the newest update went out (`changed`, `paused`, `end:stopped`).
    public var reason: String
    public var heartRate: Int?
    public var distanceMeters: Double
    public var intervalLabel: String
    /// When the newest update was decided (trace time in a replay).
    public var updatedAt: Timestamp
    /// Its push token's status where an APNs sink routes by registered tokens (never the token).
    public var pushToken: TokenStatus?
    /// The broadcast channel it is published on (APNs' id, not a secret: phones join it by it).
    public var channel: String?

    init(_ update: ActivityUpdate) {
        activityID = update.activityID
        sequence = update.sequence
        phase = update.event == .end ? .ended : update.contentState.pausedAt != nil ? .paused : .running
        reason = update.reason.rawValue
        heartRate = update.contentState.heartRate
        distanceMeters = update.contentState.distanceMeters
        intervalLabel = update.contentState.intervalLabel
        updatedAt = update.timestamp
    }
}
