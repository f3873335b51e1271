import Foundation
import Sensors
import LiveState

/// Hand-made updates of one or more activities, shaped like the engine's (priority from the reason,
/// stale date two minutes on, dismissal on the end).
enum SampleUpdates {
    static let workoutStart = Timestamp(unixSeconds: 1_704_088_800) // 2024-01-01T06:00:00Z

    static func update(_ event: ActivityUpdate.Event, activity: String = "run-1", sequence: Int, heartRate: Int? = 120,
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
    static func activity(_ id: String = "run-1", count: Int) -> [ActivityUpdate] {
        (1...count).map { sequence in
            let event: ActivityUpdate.Event = sequence == 1 ? .start : sequence == count ? .end : .update
            return update(event, activity: id, sequence: sequence, heartRate: 98 + sequence)
        }
    }
}

/// Polls `condition` every 20 ms for up to `seconds`: waits for a delivery thread without a fixed sleep.
func eventually(within seconds: Double = 10, _ condition: () -> Bool) -> Bool {
    let deadline = Date(timeIntervalSinceNow: seconds)
    while Date() < deadline {
        if condition() { return true }
        Thread.sleep(forTimeInterval: 0.02)
    }
    return condition()
}

/// Collects log lines from delivery threads.
final class LogLines: @unchecked Sendable {
    private let lock = NSLock()
    private var lines: [String] = []

    var sink: @Sendable (String) -> Void { { [self] line in lock.withLock { lines.append(line) } } }
    var all: [String] { lock.withLock { lines } }
}
