import Sensors
import LiveState

/// An update as the engine would make it, for figures worked out on paper: `reason` at `seconds`
/// (after `Moments.origin`), of `activity`, showing `metres`, paused or not.
func handMadeUpdate(
    _ seconds: Double, _ reason: UpdateReason, activity: String = "a", meters: Double = 0, paused: Bool = false
) -> ActivityUpdate {
    let time = Moments.at(seconds)
    return ActivityUpdate(
        event: reason == .start ? .start : (reason.endCause != nil ? .end : .update),
        activityID: activity, sequence: 1, timestamp: time, staleDate: time.adding(seconds: 120),
        priority: reason.isImmediate ? 10 : 5, reason: reason, attributes: .init(workoutName: "W"),
        contentState: .init(timerRange: time.date...time.date, pausedAt: paused || reason.endCause != nil ? time.date : nil,
                            heartRate: 100, distanceMeters: meters, intervalLabel: "")
    )
}
