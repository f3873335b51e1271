/// What a Garmin Training Center file (TCX v2) holds: its activities, and the one asked for as a
/// recording.
public struct TCXFile: Sendable {
    /// Every activity in the file, in its order.
    public var activities: [TCXActivitySummary]
    /// The activity asked for; nil when the file has fewer.
    public var recording: WorkoutRecording?

    /// Reads the file in one pass: the `activity`-th activity (from 1) point by point, the others
    /// only counted. A Trackpoint without a Time, or earlier than the one before, is an error at
    /// its line (TCX requires a Time on every Trackpoint); an activity without a Trackpoint, or
    /// without a heart rate in any, is refused: it has nothing to replay.
    public static func read(_ input: XMLByteStream, path: String, activity: Int) throws(ImportError) -> TCXFile {
        var decoder = TCXDecoder(input, path: path, wanted: activity)
        return try decoder.read()
    }
}

/// One activity as the file lists it, so a person can choose with `--activity N`.
public struct TCXActivitySummary: Sendable, Hashable {
    /// `Running`, `Biking`, `Other`, as the file says.
    public var sport: String?
    /// The activity's Id: by the schema, its start time as written.
    public var id: String?
    public var points: Int
}
