import LiveState
import Sensors

/// Which updates a background push carries (pure: the updates' own times, no clock). iOS wakes an app
/// for a few background pushes an hour at most and drops the rest, so this sink sends what a person
/// must see — the start, each sensor-lost and sensor-back, the end — and of the routine updates
/// (changed, refresh, pause, label) at most `routinePerHour`, spaced at least an hour / N apart so
/// they spread over the hour instead of spending it in the first minutes. A routine update that does
/// not fit is left out: the next one that does carries the newest state (latest state wins).
struct BackgroundPushBudget: Sendable {
    let routinePerHour: Double
    /// The time of each open activity's last routine push.
    private var lastRoutine: [String: Timestamp] = [:]

    init(routinePerHour: Double) {
        self.routinePerHour = routinePerHour
    }

    static func isTransition(_ update: ActivityUpdate) -> Bool {
        update.event != .update || update.reason == .sensorLost || update.reason == .sensorBack
    }

    /// Whether `update` goes out; the updates of an activity come in order.
    mutating func admits(_ update: ActivityUpdate) -> Bool {
        if update.event == .end { lastRoutine[update.activityID] = nil }
        if Self.isTransition(update) { return true }
        guard routinePerHour > 0 else { return false }
        if let last = lastRoutine[update.activityID], update.timestamp.seconds(since: last) < 3600 / routinePerHour { return false }
        lastRoutine[update.activityID] = update.timestamp
        return true
    }
}
