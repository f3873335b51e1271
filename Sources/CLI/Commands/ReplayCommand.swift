import Foundation
import HeartRate
import LiveState
import Trace

/// `hrbridge replay`: drives a trace through the live state on the trace's own clock and prints
/// the Live Activity updates it decides, one NDJSON object per line.
enum ReplayCommand {
    static let spec = CommandSpec(
        name: "replay",
        summary: "Replay a trace through the live state and print its Live Activity updates as NDJSON.",
        options: paceOptions + CadenceOptions.specOptions,
        positionals: [
            .init(name: "FILE", help: "trace to replay ('-' for stdin; default: the bundled 64-minute treadmill run)", optional: true),
        ],
        details: """
        Output: one JSON object per update (README "Live Activity updates"), e.g.
          {"event":"update","activity":"hrbridge-20240101T060000Z-1","sequence":2,"timestamp":1704088803,
           "staleDate":1704088923,"priority":5,"reason":"changed","attributesType":"WorkoutActivityAttributes",
           "attributes":{"workoutName":"Workout"},"contentState":{"distanceMeters":0,"heartRate":118,
           "intervalLabel":"","timerRange":[725781600,725810400]}}
        Times come from the trace, so the output is byte-identical at any speed. Malformed
        notifications are reported on stderr as FILE:LINE: reason and skipped.

        Examples:
          hrbridge replay --speed 60
          hrbridge replay --fast --threshold 3 --zones 114,133,152,171 my-run.trace
        """
    )

    static let paceOptions: [CommandSpec.Option] = [
        .init(name: "--speed", valueName: "N", help: "N trace seconds per wall second (default 1: real time)"),
        .init(name: "--fast", valueName: nil, help: "as fast as possible; prints exactly what real time prints"),
    ]

    static func run(_ arguments: ParsedArguments, console: Console) throws(CLIError) {
        let pace = try pace(from: arguments)
        let engine = try CadenceOptions.engine(arguments, spec: spec)
        let path = arguments.positionals.first ?? BundledTrace.path
        var drive = TraceDrive(reader: try openTrace(path), pacer: ReplayPacer(pace: pace), feed: StrapFeed(engine: engine))
        let flushEachLine = pace != .fastest
        defer { console.output.flush() }
        try drive.run(TraceDrive.Observer(
            update: { update throws(CLIError) in
                do {
                    console.output.write(try UpdateLine.encode(update))
                } catch {
                    throw .dataError("\(path): update \(update.sequence) of \(update.activityID): \(error)")
                }
                if flushEachLine { console.output.flush() }
            },
            warning: { console.warn($0) }
        ))
    }

    static func openTrace(_ path: String) throws(CLIError) -> TraceReader {
        do {
            return try TraceReader(path: path)
        } catch {
            throw error.asCLIError
        }
    }

    private static func pace(from arguments: ParsedArguments) throws(CLIError) -> ReplayPacer.Pace {
        if arguments.has("--fast") {
            guard arguments.value("--speed") == nil else { throw .usage("--fast and --speed exclude each other", spec) }
            return .fastest
        }
        guard let text = arguments.value("--speed") else { return .speed(factor: 1) }
        guard let factor = Double(text), factor > 0, factor.isFinite else {
            throw .usage("--speed '\(text)' is not a positive number", spec)
        }
        return .speed(factor: factor)
    }
}

extension TraceReadError {
    var asCLIError: CLIError {
        switch self {
        case .unreadable: .noInput(description)
        case .malformed: .dataError(description)
        }
    }
}
