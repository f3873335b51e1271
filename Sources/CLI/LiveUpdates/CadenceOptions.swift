import LiveState

/// The cadence and activity flags shared by `replay`, `evaluate` and `plot`: one flag per
/// `CadencePolicy` parameter, with its default shown in `--help`.
enum CadenceOptions {
    private struct Setting: Sendable {
        var flag: String
        var valueName: String
        var help: String
        var apply: @Sendable (inout CadencePolicy, Double) -> Void
        var current: @Sendable (CadencePolicy) -> Double
        /// Whole bpm rather than seconds.
        var isWholeNumber = false
    }

    private static let settings: [Setting] = [
        .init(flag: "--smoothing", valueName: "S", help: "median window of the displayed rate, seconds",
              apply: { $0.smoothingWindow = $1 }, current: { $0.smoothingWindow }),
        .init(flag: "--threshold", valueName: "BPM", help: "send when the displayed rate moved this far",
              apply: { $0.changeThreshold = Int($1) }, current: { Double($0.changeThreshold) }, isWholeNumber: true),
        .init(flag: "--zone-hysteresis", valueName: "BPM", help: "how far past a zone boundary counts as crossed",
              apply: { $0.zoneHysteresis = Int($1) }, current: { Double($0.zoneHysteresis) }, isWholeNumber: true),
        .init(flag: "--min-interval", valueName: "S", help: "floor between routine updates (changed, refresh)",
              apply: { $0.minimumInterval = $1 }, current: { $0.minimumInterval }),
        .init(flag: "--stale", valueName: "S", help: "stale date = update time + S",
              apply: { $0.staleWindow = $1 }, current: { $0.staleWindow }),
        .init(flag: "--refresh-lead", valueName: "S", help: "refresh this long before the stale date",
              apply: { $0.refreshLead = $1 }, current: { $0.refreshLead }),
        .init(flag: "--silence", valueName: "S", help: "no valid sample this long: sensor lost",
              apply: { $0.silenceTimeout = $1 }, current: { $0.silenceTimeout }),
        .init(flag: "--no-contact", valueName: "S", help: "no skin contact / rate 0 this long: sensor lost",
              apply: { $0.noContactTimeout = $1 }, current: { $0.noContactTimeout }),
        .init(flag: "--give-up", valueName: "S", help: "sensor lost this long: end the activity",
              apply: { $0.giveUpInterval = $1 }, current: { $0.giveUpInterval }),
        .init(flag: "--time-limit", valueName: "S", help: "ActivityKit's limit on an activity's life",
              apply: { $0.activityTimeLimit = $1 }, current: { $0.activityTimeLimit }),
        .init(flag: "--time-limit-margin", valueName: "S", help: "end this long before the time limit",
              apply: { $0.timeLimitMargin = $1 }, current: { $0.timeLimitMargin }),
        .init(flag: "--dismissal", valueName: "S", help: "final state stays this long after the end",
              apply: { $0.dismissalDelay = $1 }, current: { $0.dismissalDelay }),
    ]

    static var specOptions: [CommandSpec.Option] {
        let defaults = CadencePolicy()
        return settings.map { setting in
            .init(name: setting.flag, valueName: setting.valueName,
                  help: "\(setting.help) (default \(format(setting.current(defaults))))")
        } + [
            .init(name: "--zones", valueName: "BPM,…", help: "zone lower bounds; crossing one sends an update (default none)"),
            .init(name: "--end-at-time-limit", valueName: nil, help: "do not start a new activity after the time limit"),
            .init(name: "--workout-name", valueName: "NAME", help: "the activity's workoutName (default Workout)"),
            .init(name: "--label", valueName: "TEXT", help: "the intervalLabel (default empty)"),
        ]
    }

    /// The policy and activity settings the flags ask for, validated.
    static func parse(_ arguments: ParsedArguments, spec: CommandSpec) throws(CLIError) -> (CadencePolicy, ActivitySettings) {
        var policy = CadencePolicy()
        for setting in settings {
            guard let text = arguments.value(setting.flag) else { continue }
            guard let value = Double(text), value.isFinite, abs(value) <= CadencePolicy.longestDuration else {
                throw .usage("\(setting.flag) '\(text)' is not a number up to \(Int(CadencePolicy.longestDuration))", spec)
            }
            guard !setting.isWholeNumber || value == value.rounded() else {
                throw .usage("\(setting.flag) '\(text)' is not a whole number of bpm", spec)
            }
            setting.apply(&policy, value)
        }
        if let text = arguments.value("--zones") {
            let parts = text.split(separator: ",", omittingEmptySubsequences: false)
            let bounds = parts.compactMap { Int($0.trimmingCharacters(in: .whitespaces)) }
            guard bounds.count == parts.count else { throw .usage("--zones '\(text)' is not a list of bpm like 114,133,152", spec) }
            policy.zoneBoundaries = bounds
        }
        if arguments.has("--end-at-time-limit") { policy.continueAfterTimeLimit = false }
        do {
            policy = try policy.validated()
        } catch {
            throw .usage("\(error)", spec)
        }
        var activity = ActivitySettings()
        if let name = arguments.value("--workout-name") { activity.workoutName = name }
        if let label = arguments.value("--label") { activity.intervalLabel = label }
        return (policy, activity)
    }

    /// The engine for these flags; a name or label over the 4 KB limit is a usage error.
    static func engine(_ arguments: ParsedArguments, spec: CommandSpec) throws(CLIError) -> LiveStateEngine {
        let (policy, activity) = try parse(arguments, spec: spec)
        do {
            return try LiveStateEngine(policy: policy, settings: activity)
        } catch {
            throw .usage("\(error)", spec)
        }
    }

    private static func format(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(value)
    }
}

import Foundation
