import Sensors

/// Puts a text file's points together into a WorkoutRecording as every such format needs: in
/// time order (a point earlier than the one before is an error at its line), one per instant (of
/// points at the same time the first is kept, as other readers do), and what the format tolerates
/// counted by kind.
struct RecordingAssembler {
    /// What the format calls a point (`Trackpoint`, `trkpt`), for messages.
    let point: String
    let path: String
    private(set) var samples: [WorkoutRecording.Sample] = []
    private(set) var pauses: [WorkoutRecording.Pause] = []
    private(set) var tolerated: [String: Int] = [:]
    private var lastLine = 0

    init(point: String, path: String) {
        self.point = point
        self.path = path
    }

    /// Adds the point read at `line`, with what was skipped in it (an extension not read), which
    /// counts only when the point is kept.
    mutating func append(_ sample: WorkoutRecording.Sample, skipped: [String], line: Int) throws(ImportError) {
        if let last = samples.last {
            guard sample.time >= last.time else {
                let reason = "\(point) at \(UTCTimestampText.format(sample.time)) is earlier than the one before it"
                    + " (line \(lastLine), \(UTCTimestampText.format(last.time)))"
                throw ImportError(path: path, location: "line \(line)", reason: reason)
            }
            guard sample.time > last.time else {
                tolerate("\(point) at the same time as the one before (the first kept)")
                return
            }
        }
        if sample.heartRate == nil { tolerate("\(point) without a heart rate (a gap)") }
        for kind in skipped { tolerate(kind) }
        samples.append(sample)
        lastLine = line
    }

    /// The timer stopped after the last point so far until `end`; nothing when no time passes.
    mutating func pause(until end: Timestamp) {
        guard let last = samples.last?.time, end > last else { return }
        pauses.append(WorkoutRecording.Pause(start: last, end: end))
    }

    /// The kind counted for an extension element the format's reader does not read.
    func extensionNotRead(_ name: XMLName) -> String {
        "\(point) extension \(name.local) (\(name.namespace.isEmpty ? "no namespace" : name.namespace)) not read"
    }

    mutating func tolerate(_ kind: String) {
        tolerated[kind, default: 0] += 1
    }

    /// The recording, from the first point's time. Refused (at `line`, where `scope` starts)
    /// without a point, or when no point has a heart rate: the live state starts from the strap, so
    /// such a trace would replay to nothing.
    func recording(device: String?, scope: String, line: Int) throws(ImportError) -> WorkoutRecording {
        guard let first = samples.first else {
            throw ImportError(path: path, location: "line \(line)", reason: "\(scope) has no \(point) with a time: nothing to replay")
        }
        guard samples.contains(where: { $0.heartRate != nil }) else {
            throw ImportError(path: path, location: "line \(line)",
                              reason: "no \(point) in \(scope) has a heart rate: a replay would show nothing (it starts from the strap)")
        }
        var recording = WorkoutRecording(start: first.time, source: String(path.split(separator: "/").last ?? Substring(path)), device: device)
        recording.samples = samples
        recording.pauses = pauses
        recording.tolerated = tolerated
        return recording
    }
}
