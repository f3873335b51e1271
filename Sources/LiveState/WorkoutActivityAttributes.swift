import FoundationEssentials

/// The Live Activity's data, shaped exactly like the iOS app's `ActivityAttributes` type (the app's design notes, DESIGN.md §4):
/// the phone decodes our JSON into its own copy, so field names and types are fixed.
public struct WorkoutActivityAttributes: Codable, Sendable, Hashable {
    /// What the Lock Screen shows and changes while the workout goes on.
    public struct ContentState: Codable, Sendable, Hashable {
        /// start … start + 8 h; a resume moves the lower bound later by the paused time.
        public var timerRange: ClosedRange<Date>
        /// Set while paused (and in the final state, so the timer shows the workout's length).
        public var pausedAt: Date?
        /// Beats per minute; absent while the sensor is lost.
        public var heartRate: Int?
        /// Metres covered in this activity, from a foot pod or bike sensor; 0 without one (never invented).
        public var distanceMeters: Double
        /// Set by configuration or control (e.g. "Warm-up", "Interval 3/8").
        public var intervalLabel: String

        public init(
            timerRange: ClosedRange<Date>, pausedAt: Date? = nil, heartRate: Int?,
            distanceMeters: Double = 0, intervalLabel: String
        ) {
            self.timerRange = timerRange
            self.pausedAt = pausedAt
            self.heartRate = heartRate
            self.distanceMeters = distanceMeters
            self.intervalLabel = intervalLabel
        }
    }

    /// Fixed for the activity's life.
    public var workoutName: String

    public init(workoutName: String) {
        self.workoutName = workoutName
    }

    /// The type name the phone registers for push-to-start (`attributes-type`).
    public static let typeName = "WorkoutActivityAttributes"
}
