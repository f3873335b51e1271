import Assembly
import FoundationEssentials
import Sensors
import LiveState
import Session
import Trace
import SessionState

/// `hrbridge replay`: drives a trace through the live state on the trace's own clock and prints
/// the Live Activity updates it decides, one NDJSON object per line.
enum ReplayCommand {
    static let spec = CommandSpec(
        name: "replay",
        summary: "Replay a trace through the live state and print its Live Activity updates as NDJSON.",
        options: paceOptions + [ControlBusOption.specOption, StatusOption.specOption] + ListenOptions.specOptions + SessionOptions.specOptions + CadenceOptions.specOptions + SinkOptions.specOptions,
        positionals: [
            .init(name: "FILE", help: "trace to replay ('-' for stdin; default: the bundled 64-minute treadmill run)", optional: true),
        ],
        details: """
        Output: one JSON object per update (docs/live-activity-updates.md), e.g.
          {"event":"update","activity":"hrbridge-20240101T060000Z-1","sequence":2,"timestamp":1704088805,
           "staleDate":1704088925,"priority":5,"reason":"changed","attributesType":"WorkoutActivityAttributes",
           "attributes":{"workoutName":"Workout"},"contentState":{"distanceMeters":11.4,"heartRate":122,
           "intervalLabel":"","timerRange":[725781600,725810400]}}
        With --samples, one object per parsed sample instead, e.g.
          {"time":"2024-01-01T06:00:01.000000Z","bpm":113,"contact":"detected","energyExpended":null,"rr":[]}
        Times come from the trace, so the output is byte-identical at any speed. Malformed
        notifications are reported on stderr as FILE:LINE: reason and skipped; a line that cannot
        be read ends the activity (end:trace-error), flushes the sinks and exits 65. --from-now moves
        the trace's start to the current time (the gaps between events stay): for sending a
        replay to a phone or a server, which would take a trace's old times as stale and its
        activity ids, the same on every replay, as repeats.

        Paced replay (--speed) runs like a live strap: SIGINT/SIGTERM end the activity and flush
        the sinks (exit 130/143); the activity state file under --state-dir (default
        $STATE_DIRECTORY, $XDG_STATE_HOME/hrbridge or ~/.local/state/hrbridge) lets the next run
        end what a killed one left (end:recovered). See docs/service.md. It also serves
        'hrbridge ctl' (pause, resume, label, end, status) on the session bus, as run does
        (--control-bus system|session|none), with --listen the same controls, health and
        metrics over HTTP (docs/http-api.md), and when stderr is a terminal shows the strap's
        status line at its bottom, as run does (--no-status: off).

        Sinks (docs/sinks.md): the kinds --sink lists above, several at once, each with its
        flags. Network sinks keep order per activity, retry, and spool undelivered starts and ends
        for the next run; their counters are logged on stderr at the end.

        Examples:
          hrbridge replay --speed 60
          hrbridge replay --fast --threshold 3 --zones 114,133,152,171 my-run.trace
          hrbridge replay --speed 10 --sink stdout --sink file:updates.ndjson
          hrbridge replay --speed 10 --from-now --sink https://example.com/hooks --token-file ~/.config/hrbridge/token
        """
    )

    static let paceOptions: [CommandSpec.Option] = [
        .init(name: "--speed", valueName: "N", help: "N trace seconds per wall second (default 1: real time)"),
        .init(name: "--fast", valueName: nil, help: "as fast as possible; prints exactly what real time prints"),
        .init(name: "--samples", valueName: nil, help: "print each parsed sample instead of updates (a debugging view)"),
        .init(name: "--from-now", valueName: nil,
              help: "time the trace from now, not from its recorded start: current timestamps, stale dates and activity ids"),
    ]

    static func run(_ arguments: ParsedArguments, console: Console) throws(CLIError) {
        let pace = try pace(from: arguments)
        let reader = if let path = arguments.positionals.first { try openTrace(path) } else { try openBundledTrace() }
        if arguments.has("--from-now"), let now = SessionClock.real.now() {
            // On a whole second, as recorded traces start: the printed times stay short.
            reader.start = Timestamp(unixSeconds: now.microsecondsSinceUnixEpoch / Timestamp.microsecondsPerSecond)
        }
        if arguments.has("--samples") {
            try replaySamples(reader, pace: pace, console: console)
            return
        }
        for flag in ["--control-bus"] + ListenOptions.flags where arguments.value(flag) != nil && pace == .fastest {
            throw .usage("\(flag) serves a paced replay (--speed); --fast ends before anyone could use it", spec)
        }
        let speed: Double? = if case let .speed(factor) = pace { factor } else { nil }
        // Paced, it runs like a live strap: the state file, recovery, the controls, the status lines
        // and an orderly shutdown on SIGINT/SIGTERM. It prints what `--fast` prints.
        let status = speed == nil ? nil : StatusOption.show(arguments, console: console)
        defer { console.hideStatus() }
        let listen = try ListenOptions.parse(arguments, spec: spec)
        // The trace holds one strap, whichever it recorded: its sinks name it from the trace's header.
        let bridge = try ConfigurationFlags.configuration(arguments, straps: [.anyHeartRateStrap], spec: spec)
        let key = arguments.positionals.first.map { SessionKey.replay(tracePath: $0) } ?? BundledTrace.stateKey
        let configuration = try RuntimeOptions.configuration(arguments, bridge: bridge, source: .trace(reader, stateKey: key, speed: speed),
                                                             listen: listen, flushEachLine: speed != nil, spec: spec, console: console)
        let runtime = try CLIError.catching(BridgeRuntime.assemble(configuration, afterSinks: {
            warnAboutRecordedTimes(reader, $0, arguments, console)
        }))
        let controls = runtime.controls
        status?.follow { controls.sensorStatus() }
        defer { console.output.flush() }
        try CLIError.catching(runtime.run())
    }

    /// Network sinks about to get a trace's recorded times (said once they are set up, so after any usage error).
    private static func warnAboutRecordedTimes(_ reader: TraceReader, _ sinks: SinkSet, _ arguments: ParsedArguments, _ console: Console) {
        guard !arguments.has("--from-now"), sinks.hasNetworkSink else { return }
        console.warn("network sinks get the trace's own times (it starts \(UTCTimestampText.format(reader.start))): a phone shows "
            + "such updates as stale or ignores them, and a server may take a second replay's activity ids as repeats; "
            + "--from-now plays the trace as if it began now")
    }

    /// The raw view: every parsed 0x2A37 sample with its trace time, no engine.
    private static func replaySamples(_ reader: TraceReader, pace: ReplayPacer.Pace, console: Console) throws(CLIError) {
        var pacer = ReplayPacer(pace: pace)
        let flushEachLine = pace != .fastest
        defer { console.output.flush() }
        do {
            while let event = try reader.next() {
                pacer.wait(until: event.time)
                guard event.sensor == .strap, case let .notification(characteristic, value) = event.kind,
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
            throw error.asCLIError
        }
    }

    static func openTrace(_ path: String) throws(CLIError) -> TraceReader {
        do {
            return try TraceReader(path: path)
        } catch {
            throw error.asCLIError
        }
    }

    static func openBundledTrace() throws(CLIError) -> TraceReader {
        do {
            return try BundledTrace.reader()
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
