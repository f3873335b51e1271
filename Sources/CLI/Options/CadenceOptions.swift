import LiveState
import Sensors

/// The cadence and activity flags shared by `replay`, `evaluate` and `plot`: one flag per
/// `CadencePolicy.parameters` entry, with its default shown in `--help`.
enum CadenceOptions {
    /// Built once: several commands list them (their help texts format every default).
    static let specOptions: [CommandSpec.Option] = {
        let defaults = CadencePolicy()
        return CadencePolicy.parameters.map { parameter in
            .init(name: parameter.flag, valueName: parameter.unit.valueName,
                  help: "\(parameter.help) (default \(format(parameter.value(in: defaults))))")
        } + [
            .init(name: SettingFlag.zones, valueName: "BPM,…", help: "zone lower bounds; crossing one sends an update (default none)"),
            .init(name: SettingFlag.endAtTimeLimit, valueName: nil, help: "do not start a new activity after the time limit"),
            .init(name: SettingFlag.workoutName, valueName: "NAME", help: "the activity's workoutName (default Workout)"),
            .init(name: SettingFlag.label, valueName: "TEXT", help: "the intervalLabel (default empty)"),
            .init(name: SettingFlag.wheelCircumference, valueName: "M",
                  help: "a bike sensor's wheel, metres per revolution (default \(format(CyclingDistance.defaultWheelCircumference)): 700×23c)"),
        ]
    }()

    /// What the distance sensor cannot tell itself: `--wheel-circumference`.
    static func distance(_ arguments: ParsedArguments, spec: CommandSpec) throws(CLIError) -> DistanceSettings {
        var settings = DistanceSettings()
        guard let text = arguments.value(SettingFlag.wheelCircumference) else { return settings }
        let range = DistanceSettings.plausibleWheelCircumference
        guard let meters = Double(text), range.contains(meters) else {
            throw .usage("\(SettingFlag.wheelCircumference) '\(text)' is not a length in metres from \(format(range.lowerBound)) to \(format(range.upperBound))", spec)
        }
        settings.wheelCircumference = meters
        return settings
    }

    /// The policy and activity settings the flags ask for, validated.
    static func parse(_ arguments: ParsedArguments, spec: CommandSpec) throws(CLIError) -> (CadencePolicy, ActivitySettings) {
        var policy = CadencePolicy()
        for parameter in CadencePolicy.parameters {
            guard let text = arguments.value(parameter.flag) else { continue }
            guard let value = Double(text), value.isFinite, abs(value) <= CadencePolicy.longestDuration else {
                throw .usage("\(parameter.flag) '\(text)' is not a number up to \(Int(CadencePolicy.longestDuration))", spec)
            }
            guard !parameter.isWhole || value == value.rounded() else {
                throw .usage("\(parameter.flag) '\(text)' is not a whole number\(parameter.unit == .bpm ? " of bpm" : "")", spec)
            }
            parameter.set(value, in: &policy)
        }
        if let text = arguments.value(SettingFlag.zones) {
            let parts = text.split(separator: ",", omittingEmptySubsequences: false)
            let bounds = parts.compactMap { Int($0.trimmed) }
            guard bounds.count == parts.count else { throw .usage("\(SettingFlag.zones) '\(text)' is not a list of bpm like 114,133,152", spec) }
            policy.zoneBoundaries = bounds
        }
        if arguments.has(SettingFlag.endAtTimeLimit) { policy.continueAfterTimeLimit = false }
        do {
            policy = try policy.validated()
        } catch {
            throw .usage("\(error)", spec)
        }
        var activity = ActivitySettings()
        if let name = arguments.value(SettingFlag.workoutName) { activity.workoutName = name }
        if let label = arguments.value(SettingFlag.label) { activity.intervalLabel = label }
        return (policy, activity)
    }

    /// The engine for these flags with the distance sensor's settings: what a trace feeds. A name or
    /// label over the 4 KB limit is a usage error.
    static func feed(_ arguments: ParsedArguments, spec: CommandSpec) throws(CLIError) -> WorkoutFeed {
        let (policy, activity) = try parse(arguments, spec: spec)
        let engine: LiveStateEngine
        do {
            engine = try LiveStateEngine(policy: policy, settings: activity)
        } catch {
            throw .usage("\(error)", spec)
        }
        return WorkoutFeed(engine: engine, distance: try distance(arguments, spec: spec))
    }

    private static func format(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(value)
    }
}

import FoundationEssentials
import Platform

private extension CadenceParameter.Unit {
    /// How `--help` names the flag's value.
    var valueName: String {
        switch self {
        case .seconds: "S"
        case .bpm: "BPM"
        case .perHour: "N"
        case .meters: "M"
        case .percent: "P"
        }
    }
}
