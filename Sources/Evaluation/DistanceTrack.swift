import LiveState
import Sensors

/// The true distance of a run: what the distance sensor's own measurements add up to from each
/// activity's start, counted by the engine's rule (only while an activity runs and is not paused) but
/// not taken from the engine, so the distance its updates showed can be judged against it. Pure: the
/// metres fed to the engine and the run's updates in, the distance after each measurement out.
public struct DistanceTrack: Sendable, Hashable {
    /// The metres of one measurement as the engine was fed them, and where they fell among the updates.
    public struct Fed: Sendable, Hashable {
        public var time: Timestamp
        public var meters: Double
        /// How many of the run's updates had been decided when the metres came: they count for the
        /// activity the latest of those was about, unless that one had ended or was paused.
        public var updatesBefore: Int

        public init(time: Timestamp, meters: Double, updatesBefore: Int) {
            self.time = time
            self.meters = meters
            self.updatesBefore = updatesBefore
        }
    }

    /// The distance an activity had covered after one counted measurement.
    public struct Point: Sendable, Hashable {
        public var time: Timestamp
        public var activityID: String
        public var meters: Double
    }

    /// In the order the metres came; each activity's starts from 0.
    public private(set) var points: [Point] = []

    public init(fed: [Fed], updates: [ActivityUpdate]) {
        for measurement in fed where measurement.updatesBefore > 0 {
            let latest = updates[measurement.updatesBefore - 1]
            guard latest.event != .end, latest.contentState.pausedAt == nil else { continue }
            let before = points.last.flatMap { $0.activityID == latest.activityID ? $0.meters : nil } ?? 0
            points.append(Point(time: measurement.time, activityID: latest.activityID, meters: before + measurement.meters))
        }
    }
}
