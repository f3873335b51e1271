import BlueZ
import Sensors

/// The straps `run` and `record` are given with `--device` (repeatable), and the distance sensor
/// beside one of them with `--distance-device`.
enum DeviceOptions {
    static let distanceDeviceOption = CommandSpec.Option(
        name: "--distance-device", valueName: "ADDRESS|NAME",
        help: "a foot pod or bike sensor whose distance the strap's activity shows (with one strap)"
    )

    /// `--distance-device`, for the one strap of `straps`; several straps name theirs in the configuration file.
    static func distanceSelector(_ arguments: ParsedArguments, straps: [SensorSelector],
                                 spec: CommandSpec) throws(CLIError) -> SensorSelector? {
        guard let text = arguments.value("--distance-device") else { return nil }
        guard straps.count == 1 else {
            throw .usage("--distance-device goes with one --device; give several straps theirs with distanceSensor in a configuration file", spec)
        }
        let selector = SensorSelector(text)
        guard selector != straps[0] else { throw .usage("--distance-device is the strap itself", spec) }
        return selector
    }

    /// Each `--device` once, in order; none given: the first heart-rate strap found.
    static func selectors(_ arguments: ParsedArguments, spec: CommandSpec) throws(CLIError) -> [SensorSelector] {
        let given = arguments.allValues("--device").map(SensorSelector.init)
        guard Set(given).count == given.count else { throw .usage("the same --device given twice", spec) }
        return given.isEmpty ? [.anyHeartRateStrap] : given
    }
}
