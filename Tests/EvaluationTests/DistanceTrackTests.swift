import Sensors
import Evaluation
import LiveState
import Testing

/// The true distance counts a measurement's metres by the engine's rule, read from the updates
/// decided before it: only into a running, unpaused activity, each activity from 0.
@Suite struct DistanceTrackTests {
    /// Activity a starts at 0, pauses from 10 to 20, stops at 30; activity b starts at 40.
    static let updates = [
        handMadeUpdate(0, .start), handMadeUpdate(10, .paused, paused: true), handMadeUpdate(20, .resumed),
        handMadeUpdate(30, .end(.stopped)), handMadeUpdate(40, .start, activity: "b"),
    ]

    /// Each measurement (seconds, metres, updates decided before it) and what the track holds after it.
    static let table: [(fed: (Double, Double, Int), after: (activity: String, meters: Double)?, why: String)] = [
        ((-1, 5, 0), nil, "before any activity"),
        ((5, 3, 1), ("a", 3), "counted"),
        ((6, 0.5, 1), ("a", 3.5), "added to the activity's distance"),
        ((12, 4, 2), nil, "paused"),
        ((25, 2, 3), ("a", 5.5), "resumed"),
        ((30, 7, 3), ("a", 12.5), "at the stop's own time, but the engine heard it first"),
        ((35, 9, 4), nil, "ended"),
        ((45, 1, 5), ("b", 1), "a new activity starts from 0"),
    ]

    @Test func countsOnlyWhatTheEngineCounts() {
        let fed = Self.table.map { DistanceTrack.Fed(time: Moments.at($0.fed.0), meters: $0.fed.1, updatesBefore: $0.fed.2) }
        let points = DistanceTrack(fed: fed, updates: Self.updates).points.map { point in
            "\(point.time.seconds(since: Moments.origin)) \(point.activityID) \(point.meters)"
        }
        #expect(points == Self.table.compactMap { row in row.after.map { "\(row.fed.0) \($0.activity) \($0.meters)" } })
    }
}
