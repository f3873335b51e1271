import Foundation
import Sensors
import Trace

/// `hrbridge import csv`: a workout recording becomes a trace that replays like a strap;
/// `hrbridge import btsnoop`: a btmon capture of a real session (BtsnoopImportCommand).
enum ImportCommand {
    static let spec = CommandSpec(
        name: "import",
        summary: "Build a trace from a heart-rate recording (CSV) or a btmon capture (btsnoop).",
        options: [
            .init(name: "--rr", valueName: "RR.csv", help: "RR intervals as t_seconds,rr_ms (beat time, interval)"),
            .init(name: "--start", valueName: "ISO-8601", help: "wall-clock time of t=0 (default 2024-01-01T06:00:00Z)"),
            .init(name: "--name", valueName: "NAME", help: "strap name for the trace header"),
            .init(name: "-o", valueName: "OUTPUT", help: "trace file to write (required)"),
            BtsnoopImportCommand.handleOption,
        ],
        positionals: [
            .init(name: "csv|btsnoop", help: "the input format"),
            .init(name: "INPUT", help: "rate samples as t_seconds,bpm (csv), or a btmon -w capture (btsnoop)"),
        ],
        details: """
        Each rate row becomes one 0x2A37 notification (contact detected) carrying the RR
        intervals that ended since the previous row. The fixed default start makes imports
        reproducible.

        A capture gives a trace per connected device (several: the address before the
        extension), with its connections and the values it notified, at the capture's times.

        Examples:
          hrbridge import csv run.hr.csv --rr run.rr.csv -o run.trace
          hrbridge import btsnoop hci.btsnoop -o run.trace
        """
    )

    static func run(_ arguments: ParsedArguments, console: Console) throws(CLIError) {
        if arguments.positionals[0] == "btsnoop" { return try BtsnoopImportCommand.run(arguments, spec: spec, console: console) }
        guard arguments.positionals[0] == "csv" else {
            throw .usage("unknown import format '\(arguments.positionals[0])' (supported: csv, btsnoop)", spec)
        }
        guard arguments.allValues("--handle").isEmpty else { throw .usage("--handle is for import btsnoop", spec) }
        guard let outputPath = arguments.value("-o") else { throw .usage("missing -o OUTPUT", spec) }
        var start = RecordingImport.defaultStart
        if let startText = arguments.value("--start") {
            guard let parsed = UTCTimestampText.parse(startText) else {
                throw .usage("--start '\(startText)' is not ISO-8601 with a zone, e.g. 2024-05-01T06:30:00Z", spec)
            }
            start = parsed
        }
        let ratePath = arguments.positionals[1]
        let rates = try rows(at: ratePath, rule: .beatsPerMinute)
        let intervals = try arguments.value("--rr").map { path throws(CLIError) in try rows(at: path, rule: .rrMilliseconds) } ?? []

        let sources = ([ratePath] + arguments.allValues("--rr")).map { ($0 as NSString).lastPathComponent }
        let result = RecordingImport.events(
            heartRate: rates, rrIntervals: intervals, start: start, source: sources.joined(separator: " + ")
        )
        if result.droppedTrailingIntervals > 0 {
            console.warn("\(result.droppedTrailingIntervals) RR intervals end after the last rate row and are not in the trace")
        }
        do {
            let writer = try TraceWriter(
                path: outputPath, header: TraceHeader(start: start, name: arguments.value("--name"))
            )
            for event in result.events { try writer.append(event) }
        } catch {
            throw .cannotCreate("\(error)")
        }
        console.warn("wrote \(rates.count) notifications to \(outputPath)")
    }

    private static func rows(at path: String, rule: CSVRow.ValueRule) throws(CLIError) -> [CSVRow] {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw .noInput("\(path): cannot read file")
        }
        do {
            return try CSVRow.parse(String(decoding: data, as: UTF8.self), path: path, rule: rule)
        } catch {
            throw .dataError("\(error)")
        }
    }
}
