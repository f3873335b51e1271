import Platform
import SinkVocabulary
import LiveState
import Sensors

/// One strap and the activity it feeds.
public struct StrapConfiguration: Sendable, Equatable {
    public var strap: SensorSelector
    /// The foot pod or bike sensor whose distance the activity shows (`distanceSensor`), if any.
    public var distanceSensor: SensorSelector?
    /// `wheelCircumference`, for a bike sensor.
    public var distance: DistanceSettings
    /// workoutName from the file; intervalLabel and activityIDPrefix from it or the engine's defaults.
    public var activity: ActivitySettings
    /// The engine's defaults, the file's `cadence` over them, the strap's own over that; validated.
    public var cadence: CadencePolicy
    public var sinks: [SinkSettings]

    public init(strap: SensorSelector, distanceSensor: SensorSelector? = nil, distance: DistanceSettings = DistanceSettings(),
                activity: ActivitySettings, cadence: CadencePolicy, sinks: [SinkSettings]) {
        self.strap = strap
        self.distanceSensor = distanceSensor
        self.distance = distance
        self.activity = activity
        self.cadence = cadence
        self.sinks = sinks
    }
}

extension SensorSelector {
    /// How a configuration names it in a message: `address AA:…` or `name "…"`.
    var configured: String {
        switch self {
        case let .address(address): "address \(address)"
        case let .name(name): "name \(name.jsonQuoted)"
        case .anyHeartRateStrap: "any heart-rate strap"
        }
    }
}
