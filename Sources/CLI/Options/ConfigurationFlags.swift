import Config
import LiveState
import Sensors

/// The configuration the flags describe, as a file listing those straps would give it: each strap
/// with the flags' activity, cadence, distance settings and sinks. `run` passes its `--device`
/// straps; `replay` the trace's one.
enum ConfigurationFlags {
    static func configuration(_ arguments: ParsedArguments, straps selectors: [SensorSelector],
                              spec: CommandSpec) throws(CLIError) -> BridgeConfiguration {
        let distanceSelector = try DeviceOptions.distanceSelector(arguments, straps: selectors, spec: spec)
        let (policy, activity) = try CadenceOptions.parse(arguments, spec: spec)
        do {
            // A name or label over the 4 KB limit is the flags' fault: a usage error, before any sink opens.
            try activity.checkFits()
        } catch {
            throw .usage("\(error)", spec)
        }
        var distance = try CadenceOptions.distance(arguments, spec: spec)
        distance.heartRateFrom = try DeviceOptions.heartRateSource(arguments, distance: distanceSelector, spec: spec)
        let sinks = try SinkOptions.requested(arguments, spec: spec)
        return BridgeConfiguration(straps: selectors.map {
            StrapConfiguration(strap: $0, distanceSensor: distanceSelector, distance: distance, activity: activity,
                               cadence: policy, sinks: sinks)
        }, http: SinkOptions.http(arguments))
    }
}
