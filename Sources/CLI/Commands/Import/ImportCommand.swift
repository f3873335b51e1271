#if canImport(Glibc)
import Glibc
#endif
import FoundationEssentials
import Sensors
import Trace
import Platform

/// `hrbridge import [FORMAT] FILE`: a recording people already have becomes a trace that replays
/// like a strap (and a foot pod, when it has distance).
enum ImportCommand {
    static let spec = CommandSpec(
        name: "import",
        summary: "Build a trace from a workout recording (CSV, FIT, TCX, GPX) or a btmon capture (btsnoop).",
        options: [
            .init(name: "--rr", valueName: "RR.csv", help: "csv: RR intervals as t_seconds,rr_ms (beat time, interval)"),
            .init(name: "--activity", valueName: "N", help: "tcx: the file's Nth activity (from 1; default 1)"),
            .init(name: "--start", valueName: "ISO-8601", help: "wall-clock time of the recording's start (csv default 2024-01-01T06:00:00Z; others: the file's own)"),
            .init(name: "--name", valueName: "NAME", help: "strap name for the trace header"),
            .init(name: "-o", valueName: "OUTPUT", help: "trace file to write (required)"),
            BtsnoopImportCommand.handleOption,
        ],
        positionals: [
            .init(name: "FORMAT", help: "\(ImportFormat.allCases.map(\.rawValue).joined(separator: ", ")); left out, the file's content decides"),
            .init(name: "FILE", help: "the recording", optional: true),
        ],
        details: """
        csv: rate samples as t_seconds,bpm. Each rate row becomes one 0x2A37 notification
        (contact detected) carrying the RR intervals that ended since the previous row. The fixed
        default start makes imports reproducible.

        fit: a FIT activity file (a watch's, a bike computer's): its records' heart rate, distance,
        speed and cadence, its hrv messages' RR intervals and its timer's stops, at the file's own
        times. What it holds that a trace has no place for (developer fields, invalid values, other
        messages) is counted on stderr.

        tcx: a Garmin Training Center file: each Trackpoint's Time, heart rate, distance, cadence,
        speed; a file of several activities lists them on stderr.

        gpx: a GPX 1.1 track: each trkpt's time, and heart rate and cadence from Garmin's
        TrackPointExtension (v1 or v2); the distance is measured along the track. The time
        between segments (and tracks) is a pause, and no distance is counted across it.

        What a format allows and the import skips (a point without a heart rate: a gap; an
        extension not read) is counted on stderr by kind; a file that is wrong is refused as
        path: line N: reason (exit 65).

        btsnoop: a btmon -w capture gives a trace per connected device (several: the address
        before the extension), with its connections and the values it notified, at the
        capture's times.

        Examples:
          hrbridge import csv run.hr.csv --rr run.rr.csv -o run.trace
          hrbridge import run.hr.csv -o run.trace
          hrbridge import fit run.fit -o run.trace
          hrbridge import tcx activities.tcx --activity 2 -o run.trace
          hrbridge import ride.gpx --start 2024-05-01T06:30:00Z -o ride.trace
          hrbridge import btsnoop hci.btsnoop -o run.trace
        """
    )

    static func run(_ arguments: ParsedArguments, console: Console) throws(CLIError) {
        guard let outputPath = arguments.value("-o") else { throw .usage("missing -o OUTPUT", spec) }
        let (format, path) = try formatAndPath(arguments)
        if format != .btsnoop, !arguments.allValues("--handle").isEmpty { throw .usage("--handle is for import btsnoop", spec) }
        if format != .csv, arguments.value("--rr") != nil { throw .usage("--rr is for csv (the other formats hold their own RR intervals, or none)", spec) }
        if format != .tcx, arguments.value("--activity") != nil { throw .usage("--activity is for tcx (only TCX files hold several activities)", spec) }
        let recording: WorkoutRecording
        switch format {
        case .csv: recording = try CSVImport.recording(path, arguments: arguments, start: try start(arguments), spec: spec)
        case .fit: recording = moved(try FITImport.recording(path), to: try start(arguments))
        case .tcx: recording = moved(try TCXImport.recording(path, arguments: arguments, spec: spec, console: console), to: try start(arguments))
        case .gpx: recording = moved(try GPXImport.recording(path, console: console), to: try start(arguments))
        case .btsnoop: return try BtsnoopImportCommand.run(path, arguments, spec: spec, console: console) // a trace per device
        }
        try write(recording, to: outputPath, name: arguments.value("--name"), console: console)
    }

    /// `--start`: when the recording starts (the file's own times move with it).
    private static func start(_ arguments: ParsedArguments) throws(CLIError) -> Timestamp? {
        try arguments.value("--start").map { text throws(CLIError) in
            guard let parsed = UTCTimestampText.parse(text) else {
                throw .usage("--start '\(text)' is not ISO-8601 with a zone, e.g. 2024-05-01T06:30:00Z", spec)
            }
            guard UTCTimestampText.writableRange.contains(parsed) else {
                throw .usage("--start '\(text)' is outside the years \(UTCTimestampText.writableYears) a trace can hold", spec)
            }
            return parsed
        }
    }

    /// A file's own times, moved so that it starts at `--start` when given.
    private static func moved(_ recording: WorkoutRecording, to start: Timestamp?) -> WorkoutRecording {
        guard let start else { return recording }
        return recording.moved(by: start.microsecondsSinceUnixEpoch - recording.start.microsecondsSinceUnixEpoch)
    }

    /// Reads an XML recording through a fixed buffer: the file is never all in memory.
    static func readXML<File>(_ path: String, _ read: (XMLByteStream) throws(ImportError) -> File) throws(CLIError) -> File {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw .noInput("\(path): cannot read file: \(String(cString: strerror(errno)))") }
        defer { close(descriptor) }
        do {
            return try read(XMLByteStream(descriptor: descriptor))
        } catch {
            throw .dataError("\(error)")
        }
    }

    /// `import FORMAT FILE`, or `import FILE` with the format read from the file's first bytes.
    private static func formatAndPath(_ arguments: ParsedArguments) throws(CLIError) -> (ImportFormat, String) {
        let first = arguments.positionals[0]
        if arguments.positionals.count == 2 {
            guard let format = ImportFormat(rawValue: first) else {
                throw .usage("unknown import format '\(first)' (supported: \(ImportFormat.allCases.map(\.rawValue).joined(separator: ", ")))", spec)
            }
            return (format, arguments.positionals[1])
        }
        let descriptor = open(first, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw .noInput("\(first): cannot read file: \(String(cString: strerror(errno)))") }
        defer { close(descriptor) }
        var head = [UInt8](repeating: 0, count: ImportFormat.headLength)
        let count = head.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        head = Array(head.prefix(max(count, 0)))
        guard let format = ImportFormat.recognising(head) else {
            throw .dataError("\(first): not a recording hrbridge can import (\(ImportFormat.allCases.map(\.rawValue).joined(separator: ", "))); name the format to see why")
        }
        return (format, first)
    }

    private static func write(_ recording: WorkoutRecording, to outputPath: String, name: String?, console: Console) throws(CLIError) {
        let result = RecordingImport.trace(of: recording)
        if !recording.tolerated.isEmpty {
            let counts = recording.tolerated.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }
            console.warn("skipped: \(counts.joined(separator: ", "))")
        }
        if result.droppedTrailingIntervals > 0 {
            console.warn("\(result.droppedTrailingIntervals) RR intervals end after the last rate sample and are not in the trace")
        }
        do {
            var header = TraceHeader(start: recording.start, name: name ?? recording.device, version: result.version)
            header.source = recording.source
            let writer = try TraceWriter(path: outputPath, header: header)
            for event in result.events { try writer.append(event) }
        } catch {
            throw .cannotCreate("\(error)")
        }
        let notifications = result.events.count { if case .notification = $0.kind { true } else { false } }
        console.warn("wrote \(notifications) notifications to \(outputPath)")
    }
}
