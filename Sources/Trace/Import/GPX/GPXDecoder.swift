/// Walks a GPX document: gpx / trk / trkseg / trkpt. Tracks and segments only hold points here:
/// waypoints and routes are places and plans, not a recording; metadata, names and the file's
/// `creator` (a program more often than a device) are skipped.
struct GPXDecoder {
    var walker: XMLWalker
    var assembler: RecordingAssembler
    var odometer = TrackOdometer()
    /// A segment began since the last point with a time: the next one ends a pause.
    var segmentGap = false
    private var tracks = 0

    init(_ input: XMLByteStream, path: String) {
        walker = XMLWalker(input, path: path)
        assembler = RecordingAssembler(point: "trkpt", path: path)
    }

    mutating func read() throws(ImportError) -> GPXFile {
        guard let root = try walker.nextChild(inside: 0) else { throw walker.failure(line: 1, "no root element") } // the reader says so first
        guard root.name == GPXNames.gpx("gpx") else {
            let reason = root.name == XMLName(GPXNames.gpx10, "gpx")
                ? "GPX 1.0 is not read, only GPX 1.1 (where Garmin's extensions carry the heart rate)"
                : "the root element is <\(root.name)>, not gpx of \(GPXNames.gpx)"
            throw walker.failure(line: root.line, reason)
        }
        while let child = try walker.nextChild(inside: 1) {
            if child.name == GPXNames.gpx("trk") { try readTrack() }
        }
        let recording = try assembler.recording(device: nil, scope: "the file", line: root.line)
        return GPXFile(recording: recording, tracks: tracks)
    }

    /// A track's segments; a track after the first begins like a segment.
    private mutating func readTrack() throws(ImportError) {
        tracks += 1
        let trackDepth = walker.depth
        while let segment = try walker.nextChild(inside: trackDepth) {
            guard segment.name == GPXNames.gpx("trkseg") else { continue }
            odometer.startSegment()
            segmentGap = !assembler.samples.isEmpty
            let segmentDepth = walker.depth
            while let point = try walker.nextChild(inside: segmentDepth) {
                if point.name == GPXNames.gpx("trkpt") { try readPoint(point) }
            }
        }
    }
}
