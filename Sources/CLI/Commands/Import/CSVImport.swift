import FoundationEssentials
import Sensors
import Trace
import Platform

/// `import csv`: `t_seconds,bpm` rows (and `--rr` `t_seconds,rr_ms` rows) relative to `--start`.
enum CSVImport {
    static func recording(_ path: String, arguments: ParsedArguments, start: Timestamp?, spec: CommandSpec) throws(CLIError) -> WorkoutRecording {
        let start = start ?? RecordingImport.defaultStart
        let rates = try rows(at: path, rule: .beatsPerMinute, start: start)
        let intervals = try arguments.value("--rr").map { path throws(CLIError) in try rows(at: path, rule: .rrMilliseconds, start: start) } ?? []
        let sources = ([path] + arguments.allValues("--rr")).map { FilePath.lastComponent(of: $0) }
        return WorkoutRecording(csvHeartRate: rates, rrIntervals: intervals, start: start,
                                source: sources.joined(separator: " + "))
    }

    private static func rows(at path: String, rule: CSVRow.ValueRule, start: Timestamp) throws(CLIError) -> [CSVRow] {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw .noInput("\(path): cannot read file")
        }
        do {
            return try CSVRow.parse(String(decoding: data, as: UTF8.self), path: path, rule: rule, start: start)
        } catch {
            throw .dataError("\(error)")
        }
    }
}
