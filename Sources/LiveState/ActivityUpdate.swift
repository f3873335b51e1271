import Sensors

/// One lifecycle step of a Live Activity, as the engine decides it and every sink forwards it.
public struct ActivityUpdate: Sendable, Hashable {
    public enum Event: String, Sendable, Hashable, CaseIterable {
        case start
        case update
        case end
    }

    public var event: Event
    /// Deterministic for a given trace and settings, so replays are byte-identical.
    public var activityID: String
    /// 1 for the start, then +1 per update of the same activity: lets a receiver drop repeats and spot gaps.
    public var sequence: Int
    /// When the engine decided it (trace time in replay).
    public var timestamp: Timestamp
    /// After this the phone shows the content as outdated unless a newer update arrived.
    public var staleDate: Timestamp
    /// Only on `end`: when the system may remove the final state from the Lock Screen.
    public var dismissalDate: Timestamp?
    /// ActivityKit/APNs priority, decided by the engine and read by every sink: 10 (immediate) for
    /// start and end, and for sensor-lost and sensor-back within the activity's hourly budget unless
    /// the sensor is flapping; 5 otherwise.
    public var priority: Int
    public var reason: Reason
    public var attributes: WorkoutActivityAttributes
    public var contentState: WorkoutActivityAttributes.ContentState

    public init(
        event: Event, activityID: String, sequence: Int, timestamp: Timestamp, staleDate: Timestamp,
        dismissalDate: Timestamp? = nil, priority: Int, reason: Reason,
        attributes: WorkoutActivityAttributes, contentState: WorkoutActivityAttributes.ContentState
    ) {
        self.event = event
        self.activityID = activityID
        self.sequence = sequence
        self.timestamp = timestamp
        self.staleDate = staleDate
        self.dismissalDate = dismissalDate
        self.priority = priority
        self.reason = reason
        self.attributes = attributes
        self.contentState = contentState
    }

    /// Priority for pushes a person must see now.
    public static let immediatePriority = 10
    /// Priority for everything else: the system may batch or delay these to save power.
    public static let normalPriority = 5

    /// Urgent by its reason (sensor lost or back) but sent at priority 5: the hourly budget was
    /// spent or the sensor was flapping.
    public var isDemoted: Bool {
        event == .update && reason.isImmediate && priority != Self.immediatePriority
    }
}
