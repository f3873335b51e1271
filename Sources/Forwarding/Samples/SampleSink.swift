import Sensors

/// A sink fed the workout's samples one by one as they arrive, not the Live Activity's updates (a
/// re-broadcast heart rate must keep the strap's own pace). The live session calls it on its queue
/// for every sample `SampleReader` finds in an event, after the engine has seen that event.
public protocol SampleSink: AnyObject {
    func take(_ sample: WorkoutSample)
}

/// One of the workout's values as a sample sink gets it.
public enum WorkoutSample: Sendable, Equatable {
    /// The strap's measurement as it sent it, or the machine's rate (no contact status) when that
    /// is what the activity shows (`--heart-rate-from machine`, no strap connected).
    case heartRate(HeartRateMeasurement)
    /// The distance sensor's speed and total distance as a foot pod measures them: a foot pod's own
    /// measurement, or a treadmill's belt speed and distance.
    case running(RunningSpeedCadenceMeasurement)
    case battery(BatteryLevel)
    case bodySensorLocation(BodySensorLocation)
    /// A sensor's link dropped (the strap, or the distance sensor): its values stop until `back`.
    case lost(SensorRole)
    case back(SensorRole)
}
