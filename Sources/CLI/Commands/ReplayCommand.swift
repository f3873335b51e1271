import Foundation
import HeartRate
import Trace

/// `hrbridge replay`: drives a trace through the pipeline on the trace's own clock.
enum ReplayCommand {
    static let spec = CommandSpec(
        name: "replay",
        summary: "Replay a trace through the pipeline and print what it produces as NDJSON.",
        options: [
            .init(name: "--speed", valueName: "N", help: "N trace seconds per wall second (default 1: real time)"),
            .init(name: "--fast", valueName: nil, help: "as fast as possible; prints exactly what real time prints"),
        ],
        positionals: [
            .init(name: "FILE", help: "trace to replay ('-' for stdin; default: the bundled 64-minute treadmill run)", optional: true),
        ],
        details: """
        Output: one JSON object per sample, e.g.
          {"time":"2024-01-01T06:00:01.000000Z","bpm":113,"contact":"detected","energyExpended":null,"rr":[]}
        Malformed notifications are reported on stderr as FILE:LINE: reason and skipped.

        Examples:
          hrbridge replay --speed 60
          hrbridge replay --fast my-run.trace
        """
    )

    static func run(_ arguments: ParsedArguments, console: Console) throws(CLIError) {
        let pace = try pace(from: arguments)
        let path = arguments.positionals.first ?? BundledTrace.path
        let reader: TraceReader
        do {
            reader = try TraceReader(path: path)
        } catch {
            throw error.asCLIError
        }
        var pacer = ReplayPacer(pace: pace)
        let flushEachLine = pace != .fastest
        do {
            while let event = try reader.next() {
                pacer.wait(until: event.time)
                guard case let .notification(characteristic, value) = event.kind,
                      characteristic == .heartRateMeasurement
                else { continue }
                do {
                    let measurement = try HeartRateMeasurement(parsing: value)
                    console.output.append { SampleJSON.append(measurement, at: event.time, to: &$0) }
                    if flushEachLine { console.output.flush() }
                } catch {
                    console.warn("\(reader.path):\(reader.lineNumber): dropped malformed 0x2A37 value: \(error)")
                }
            }
        } catch {
            console.output.flush()
            throw error.asCLIError
        }
        console.output.flush()
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

/// A replayed sample: the measurement's JSON with the trace time first.
enum SampleJSON {
    static func append(_ measurement: HeartRateMeasurement, at time: Timestamp, to bytes: inout [UInt8]) {
        var json = JSONLine()
        json.key("time")
        json.raw(UInt8(ascii: "\""))
        json.raw { UTCTimestampText.append(time, to: &$0) }
        json.raw(UInt8(ascii: "\""))
        json.measurement(measurement)
        bytes.append(contentsOf: json.finish())
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
