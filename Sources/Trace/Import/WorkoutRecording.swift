import Sensors

/// A workout as a watch, bike computer or spreadsheet stored it: what every importer decodes a
/// file into, and `RecordingImport` turns into the events a strap and a foot pod would have sent.
/// Only what the file said is here: a sample without a heart rate is a gap, not a zero.
public struct WorkoutRecording: Sendable, Hashable {
    /// Offset 0 of the trace: the file's first time (or `t = 0` of a CSV's relative times).
    public var start: Timestamp
    /// In time order.
    public var samples: [Sample] = []
    /// RR intervals by the time of the beat that ends each, in time order.
    public var beats: [Beat] = []
    /// When the workout's timer was stopped, each until it started again (nil: never again).
    public var pauses: [Pause] = []
    /// The file the recording came from, for the trace's note.
    public var source: String
    /// The device that recorded it, when the file says.
    public var device: String?
    /// What the importer skipped because the format allows it (a point without a heart rate, an
    /// extension it does not read), counted by kind, so the command can say what is not in the trace.
    public var tolerated: [String: Int] = [:]

    public init(start: Timestamp, source: String, device: String? = nil) {
        self.start = start
        self.source = source
        self.device = device
    }

    public struct Sample: Sendable, Hashable {
        public var time: Timestamp
        public var heartRate: Int?
        /// Metres since the recording's start, as the device counted them.
        public var distance: Double?
        /// Metres per second.
        public var speed: Double?
        /// Steps (or revolutions) per minute.
        public var cadence: Int?

        public init(time: Timestamp, heartRate: Int? = nil, distance: Double? = nil, speed: Double? = nil, cadence: Int? = nil) {
            self.time = time
            self.heartRate = heartRate
            self.distance = distance
            self.speed = speed
            self.cadence = cadence
        }

        /// Whether a foot pod would have had something to say.
        var hasDistance: Bool { distance != nil || speed != nil }
    }

    public struct Beat: Sendable, Hashable {
        public var time: Timestamp
        public var milliseconds: Double

        public init(time: Timestamp, milliseconds: Double) {
            self.time = time
            self.milliseconds = milliseconds
        }
    }

    public struct Pause: Sendable, Hashable {
        public var start: Timestamp
        public var end: Timestamp?

        public init(start: Timestamp, end: Timestamp?) {
            self.start = start
            self.end = end
        }
    }

    /// The same recording with every time moved by `microseconds` (`--start`).
    public func moved(by microseconds: Int64) -> WorkoutRecording {
        var moved = self
        moved.start = start.adding(microseconds: microseconds)
        moved.samples = samples.map { var sample = $0; sample.time = $0.time.adding(microseconds: microseconds); return sample }
        moved.beats = beats.map { .init(time: $0.time.adding(microseconds: microseconds), milliseconds: $0.milliseconds) }
        moved.pauses = pauses.map { .init(start: $0.start.adding(microseconds: microseconds), end: $0.end?.adding(microseconds: microseconds)) }
        return moved
    }
}
