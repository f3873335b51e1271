import LiveState
import Sensors

/// One event's updates, warning and measurement together, as the tests read them (the product's
/// drivers take them into arrays of their own: `handle(_:updates:warnings:)`).
struct FeedOutcome {
    var updates: [ActivityUpdate]
    var warning: String?
    var metersCovered: Double?
    var measurement: HeartRateMeasurement?
}

extension WorkoutFeed {
    mutating func handle(_ event: SensorEvent) -> FeedOutcome {
        var updates: [ActivityUpdate] = []
        var warnings: [String] = []
        let note = handle(event, updates: &updates, warnings: &warnings)
        var measurement: HeartRateMeasurement?
        if note.measured, case let .notification(_, value) = event.kind { measurement = try? HeartRateMeasurement(parsing: value) }
        return FeedOutcome(updates: updates, warning: warnings.first, metersCovered: note.metersCovered, measurement: measurement)
    }
}
