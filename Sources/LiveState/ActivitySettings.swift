/// What the activity says about itself, from configuration or control (not from the strap).
public struct ActivitySettings: Sendable, Hashable {
    /// The attributes' `workoutName`, fixed for an activity's life.
    public var workoutName: String
    /// The content state's `intervalLabel` at start; control may change it later.
    public var intervalLabel: String
    /// Activity ids are `<prefix>-<UTC start, yyyyMMddTHHmmssZ>-<n>`: readable, and the same in every replay.
    public var activityIDPrefix: String

    public init(workoutName: String = "Workout", intervalLabel: String = "", activityIDPrefix: String = "hrbridge") {
        self.workoutName = workoutName
        self.intervalLabel = intervalLabel
        self.activityIDPrefix = activityIDPrefix
    }
}
