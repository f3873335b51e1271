import LiveState

/// How the distance on the Lock Screen followed the true one (`DistanceTrack`): where each ended up,
/// and how far the shown distance fell behind on the way. Pure; every figure in metres, to 0.1 m as
/// the phone shows them.
public struct DistanceScore: Sendable, Hashable {
    /// The distance the updates showed last: each activity's last update, added up over the activities.
    public var shownMeters: Double
    /// The distance the sensor's measurements add up to over the activities (the track's ends).
    public var measuredMeters: Double
    /// The most the true distance was ahead of the shown one at any moment: how far the Lock Screen
    /// lagged. Distance alone sends an update every `distanceStep`, so about that when nothing else does.
    public var largestLagMeters: Double

    public init(track: DistanceTrack, updates: [ActivityUpdate]) {
        let lastShown = updates.reduce(into: [String: Double]()) { $0[$1.activityID] = $1.contentState.distanceMeters }
        let lastMeasured = track.points.reduce(into: [String: Double]()) { $0[$1.activityID] = $1.meters }
        shownMeters = Self.tenths(lastShown.values.reduce(0, +))
        measuredMeters = Self.tenths(lastMeasured.values.reduce(0, +))
        largestLagMeters = Self.tenths(Self.largestLag(track: track, updates: updates))
    }

    /// The lag that lasts: after a measurement, against the newest update of its instant. An update the
    /// same measurement led to (a distance step passed) is on the phone from the same moment.
    private static func largestLag(track: DistanceTrack, updates: [ActivityUpdate]) -> Double {
        var largest = 0.0
        var shown = 0 // updates up to here have a time no later than the current point's
        for point in track.points {
            while shown < updates.count, updates[shown].timestamp <= point.time { shown += 1 }
            guard shown > 0 else { continue }
            let latest = updates[shown - 1]
            guard latest.activityID == point.activityID, latest.event != .end else { continue }
            largest = max(largest, point.meters - latest.contentState.distanceMeters)
        }
        return largest
    }

    private static func tenths(_ meters: Double) -> Double { (meters * 10).rounded() / 10 }
}

extension DistanceScore {
    /// Several traces as one: the distances added up, the largest lag kept; nil when none had a
    /// distance sensor.
    public static func total(_ scores: [DistanceScore]) -> DistanceScore? {
        guard var total = scores.first else { return nil }
        for score in scores.dropFirst() {
            total.shownMeters = tenths(total.shownMeters + score.shownMeters)
            total.measuredMeters = tenths(total.measuredMeters + score.measuredMeters)
            total.largestLagMeters = max(total.largestLagMeters, score.largestLagMeters)
        }
        return total
    }
}
