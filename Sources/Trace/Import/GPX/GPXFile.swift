/// What a GPX 1.1 file holds as a recording: its track points with a time, heart rate and cadence
/// from Garmin's TrackPointExtension, the distance along the track, and a pause between segments.
public struct GPXFile: Sendable {
    public var recording: WorkoutRecording
    /// How many tracks (`trk`) were joined: more than one are read one after the other, like
    /// segments, the time between them a pause.
    public var tracks: Int

    /// Reads the file in one pass. A point earlier than the one before is an error at its line.
    /// Times are optional in GPX: a point without one is left out (its position still counts toward
    /// the distance), and a file with no time at all is refused, having nothing to replay, as is
    /// one where no point has a heart rate.
    public static func read(_ input: XMLByteStream, path: String) throws(ImportError) -> GPXFile {
        var decoder = GPXDecoder(input, path: path)
        return try decoder.read()
    }
}
