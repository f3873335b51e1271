import Foundation
import Sensors
import LiveState

/// Hand-made updates of one or more activities, shaped like the engine's (priority from the reason,
/// stale date two minutes on, dismissal on the end).
public enum SampleUpdates {
    public static let workoutStart = Timestamp(unixSeconds: 1_704_088_800) // 2024-01-01T06:00:00Z

    /// Real updates from the engine: start at 0, a label at 2, a pause at 4, stop at 6 (before the
    /// 10 s silence timeout). The state file's tests and the session's share them.
    public static func fromEngine() throws -> [ActivityUpdate] {
        var engine = try LiveStateEngine()
        let origin = workoutStart
        var updates = try engine.receive(.sample(beatsPerMinute: 120, contact: .detected), at: origin)
        updates += try engine.receive(.label("Block 2"), at: origin.adding(seconds: 2))
        updates += try engine.receive(.pause, at: origin.adding(seconds: 4))
        updates += try engine.receive(.stop(.stopped), at: origin.adding(seconds: 6))
        return updates
    }

    public static func update(_ event: ActivityUpdate.Event, activity: String = "run-1", sequence: Int, heartRate: Int? = 120,
                              reason: UpdateReason? = nil, label: String = "Warm-up", workoutName: String = "Morning run") -> ActivityUpdate {
        let time = workoutStart.adding(seconds: Double(sequence) * 5)
        let reason = reason ?? (event == .start ? .start : event == .end ? .end(.stopped) : .changed)
        return ActivityUpdate(
            event: event, activityID: activity, sequence: sequence, timestamp: time,
            staleDate: time.adding(seconds: 120),
            dismissalDate: event == .end ? time.adding(seconds: 900) : nil,
            priority: reason.isImmediate ? ActivityUpdate.immediatePriority : ActivityUpdate.normalPriority,
            reason: reason,
            attributes: WorkoutActivityAttributes(workoutName: workoutName),
            contentState: .init(timerRange: workoutStart.date...workoutStart.adding(seconds: 8 * 3600).date,
                                pausedAt: event == .end ? time.date : nil, heartRate: heartRate, intervalLabel: label)
        )
    }

    /// start (1), updates 2…n-1 with heart rates 100, 101, …, end (n).
    public static func activity(_ id: String = "run-1", count: Int) -> [ActivityUpdate] {
        (1...count).map { sequence in
            let event: ActivityUpdate.Event = sequence == 1 ? .start : sequence == count ? .end : .update
            return update(event, activity: id, sequence: sequence, heartRate: 98 + sequence)
        }
    }
}
