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

extension ActivitySettings {
    /// Throws when this name and label could make a state over ActivityKit's 4 KB limit: the check
    /// the engine makes when it is built, for callers that must refuse them first (`run`'s flags).
    public func checkFits() throws(LiveStateError) {
        try LiveStateEngine.checkFits(workoutName: workoutName, label: intervalLabel)
    }
}
