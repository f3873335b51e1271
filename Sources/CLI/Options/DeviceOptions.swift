import BlueZ
import Sensors

/// The straps `run` and `record` are given with `--device` (repeatable), the distance sensor
/// beside one of them with `--distance-device`, and whether its heart rate may stand in for the strap's.
enum DeviceOptions {
    static let distanceDeviceOption = CommandSpec.Option(
        name: SettingFlag.distanceDevice, valueName: "ADDRESS|NAME",
        help: "a foot pod, bike sensor, treadmill or indoor bike whose distance the strap's activity shows (with one strap)"
    )

    static let heartRateFromOption = CommandSpec.Option(
        name: SettingFlag.heartRateFrom, valueName: "strap|machine",
        help: "machine: the distance device's own heart rate feeds the activity while no strap is connected (default strap)"
    )

    /// `--heart-rate-from`: `machine` needs a distance device to take it from.
    static func heartRateSource(_ arguments: ParsedArguments, distance: SensorSelector?, spec: CommandSpec) throws(CLIError) -> HeartRateSource {
        guard let text = arguments.value(SettingFlag.heartRateFrom) else { return .strap }
        guard let source = HeartRateSource(rawValue: text) else {
            throw .usage("\(SettingFlag.heartRateFrom) '\(text)' is not \(HeartRateSource.allCases.map(\.rawValue).joined(separator: " or "))", spec)
        }
        if source == .machine, distance == nil { throw .usage("\(SettingFlag.heartRateFrom) machine takes it from \(SettingFlag.distanceDevice); none given", spec) }
        return source
    }

    /// `--distance-device`, for the one strap of `straps`; several straps name theirs in the configuration file.
    static func distanceSelector(_ arguments: ParsedArguments, straps: [SensorSelector],
                                 spec: CommandSpec) throws(CLIError) -> SensorSelector? {
        guard let text = arguments.value(SettingFlag.distanceDevice) else { return nil }
        guard straps.count == 1 else {
            throw .usage("\(SettingFlag.distanceDevice) goes with one \(SettingFlag.device); give several straps theirs with distanceSensor in a configuration file", spec)
        }
        let selector = SensorSelector(text)
        guard selector != straps[0] else { throw .usage("\(SettingFlag.distanceDevice) is the strap itself", spec) }
        return selector
    }

    /// Each `--device` once, in order; none given: the first heart-rate strap found.
    static func selectors(_ arguments: ParsedArguments, spec: CommandSpec) throws(CLIError) -> [SensorSelector] {
        let given = arguments.allValues(SettingFlag.device).map(SensorSelector.init)
        guard Set(given).count == given.count else { throw .usage("the same \(SettingFlag.device) given twice", spec) }
        return given.isEmpty ? [.anyHeartRateStrap] : given
    }
}
