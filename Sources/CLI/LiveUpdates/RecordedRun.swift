import Evaluation
import Sensors
import LiveState
import Session
import Trace

/// One trace driven through the engine as fast as possible, with everything kept for analysis:
/// the true (valid) samples, the distance sensor's metres and the updates. `evaluate` and `plot`
/// start from this.
struct RecordedRun {
    var path: String
    var samples: [(time: Timestamp, rate: Int)] = []
    /// Empty for a trace without a distance sensor (or one that never measured).
    var fedDistances: [DistanceTrack.Fed] = []
    var updates: [ActivityUpdate] = []
    /// First to last event; nil for a trace without events.
    var span: ClosedRange<Timestamp>?

    /// Replays `path`; malformed notifications are reported through `console` and skipped.
    static func replay(_ path: String, feed: WorkoutFeed, console: Console) throws(CLIError) -> RecordedRun {
        var run = RecordedRun(path: path)
        var drive = TraceDrive(reader: try ReplayCommand.openTrace(path), pacer: ReplayPacer(pace: .fastest), feed: feed)
        var samples: [(time: Timestamp, rate: Int)] = []
        var fedDistances: [DistanceTrack.Fed] = []
        var updates: [ActivityUpdate] = []
        run.span = try CLIError.catching(drive.run(TraceDrive.Observer(
            update: { updates.append($0) },
            sample: { time, measurement in
                guard measurement.beatsPerMinute > 0, measurement.sensorContact != .notDetected else { return }
                samples.append((time, Int(measurement.beatsPerMinute)))
            },
            distance: { time, meters in fedDistances.append(.init(time: time, meters: meters, updatesBefore: updates.count)) },
            warning: { console.warn($0) }
        )))
        run.samples = samples
        run.fedDistances = fedDistances
        run.updates = updates
        return run
    }

    /// The true distance, for a trace with a distance sensor.
    var distanceTrack: DistanceTrack? {
        fedDistances.isEmpty ? nil : DistanceTrack(fed: fedDistances, updates: updates)
    }

    func score(truth: CadenceScore.Truth) -> CadenceScore {
        guard let span else { return .total([]) }
        return CadenceScore(samples: samples, updates: updates, span: span, truth: truth, distance: distanceTrack)
    }
}
