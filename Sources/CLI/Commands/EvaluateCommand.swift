import Evaluation
import FoundationEssentials
import LiveState
import Platform

/// `hrbridge evaluate`: replays traces through the engine and measures the cadence against the
/// true samples: updates per hour, share of live time within ±5 bpm, loss delay, stale while live,
/// and with a distance sensor how the shown distance followed the sensor's.
enum EvaluateCommand {
    static let spec = CommandSpec(
        name: "evaluate",
        summary: "Measure the update cadence on traces: updates per hour against accuracy and dropout delay.",
        options: [
            .init(name: "--json", valueName: nil, help: "print one JSON document instead of tables"),
            .init(name: "--tolerance", valueName: "BPM", help: "how close to the truth counts as right (default 5)"),
            .init(name: "--truth-window", valueName: "S", help: "the truth is the median of the samples of the last S seconds (default 0: the newest sample)"),
            .init(name: "--optimum", valueName: "N,…", help: "also the best possible at N routine updates per live hour, and at the policy's own count"),
        ] + CadenceOptions.specOptions,
        positionals: [
            .init(name: "TRACE", help: "traces to replay (as fast as possible)", repeatable: true),
        ],
        details: """
        Per trace and in total: duration, valid samples, updates (count, per hour, by reason),
        routine updates (changed, refresh) per live hour, priority-10 updates per hour and the
        most one activity sent in any 60 minutes (APNs' budget: at most --urgent-per-hour),
        demotions (a sensor-lost or sensor-back sent at priority 5: budget spent or the sensor
        flapping), the share of the run the strap was live (samples at most 10 s apart, as
        shared/tools/oracle counts it) and of that time the phone showed a rate within the
        tolerance of the truth (showing none counts against it), the dropouts (gaps over 10 s)
        a sensor-lost said within 10 s, the delay from the last valid sample to each sensor-lost
        update (worst), seconds a shown rate sat past its stale date (must be 0), and the largest
        attributes + content state.
        With --optimum, a table on the terms of shared/tools/oracle (each raw sample the truth
        until the next): the policy's share within the tolerance and routine updates, the
        offline optimum with as many routine updates, and at each N an hour (perfect hindsight,
        updates 3 s apart; no policy can beat it).
        With a distance sensor in the trace (version 2), also the distance: shown at the end
        (the last update's), measured (the sensor's own meters while the activity ran) and the
        largest lag (how far the shown distance was behind the measured one at any moment).

        Example:
          hrbridge evaluate --threshold 4 run1.trace run2.trace
        """
    )

    static func run(_ arguments: ParsedArguments, console: Console) throws(CLIError) {
        let feed = try CadenceOptions.feed(arguments, spec: spec)
        var truth = CadenceScore.Truth()
        if let text = arguments.value("--tolerance") {
            guard let value = Double(text), value >= 0, value <= 300 else { throw .usage("--tolerance '\(text)' is not a number of bpm from 0 to 300", spec) }
            truth.toleranceBeatsPerMinute = value
        }
        if let text = arguments.value("--truth-window") {
            guard let value = Double(text), value >= 0, value <= 3600 else { throw .usage("--truth-window '\(text)' is not a number of seconds from 0 to 3600", spec) }
            truth.windowSeconds = value
        }
        let budgets = try optimumBudgets(arguments)
        var rows: [(name: String, score: CadenceScore)] = []
        var optimums: [(name: String, comparison: OptimumComparison)] = []
        for path in arguments.positionals {
            let run = try RecordedRun.replay(path, feed: feed, console: console)
            let name = FilePath.lastComponent(of: path)
            rows.append((name, run.score(truth: truth)))
            if let budgets {
                var raw = CadenceScore.Truth()
                raw.toleranceBeatsPerMinute = truth.toleranceBeatsPerMinute
                optimums.append((name, OptimumComparison(samples: run.samples, rawScore: run.score(truth: raw), budgets: budgets,
                                                         tolerance: Int(truth.toleranceBeatsPerMinute))))
            }
        }
        rows.append(("total", CadenceScore.total(rows.map(\.score))))
        if arguments.has("--json") {
            console.output.write(EvaluationReport.json(rows, optimums: optimums))
        } else {
            console.output.write(EvaluationReport.table(rows, tolerance: truth.toleranceBeatsPerMinute))
            if !optimums.isEmpty { console.output.write("\n" + EvaluationReport.optimumTable(optimums)) }
        }
        console.output.flush()
    }

    /// `--optimum 30,60,90`: routine updates per live hour; nil without the option.
    private static func optimumBudgets(_ arguments: ParsedArguments) throws(CLIError) -> [Double]? {
        guard let text = arguments.value("--optimum") else { return nil }
        var budgets: [Double] = []
        for part in text.split(separator: ",", omittingEmptySubsequences: false) {
            guard let value = Double(part), value >= 0, value <= 3600 else {
                throw .usage("--optimum '\(text)': '\(part)' is not a number of updates per hour from 0 to 3600", spec)
            }
            budgets.append(value)
        }
        return budgets
    }
}
