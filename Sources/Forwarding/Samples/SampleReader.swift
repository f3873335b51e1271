import Sensors

/// The samples in a workout's events, for sample sinks. Pure. Keeps what a treadmill splits over
/// two notifications (its total distance in the first part, its speed in the last: FTMS 4.19).
public struct SampleReader: Sendable {
    /// The treadmill's last total distance, in metres.
    private var machineDistance: Int?

    public init() {}

    /// `machineHeartRateShown`: the activity shows the distance sensor's heart rate now.
    public mutating func samples(in event: SensorEvent, machineHeartRateShown: Bool) -> [WorkoutSample] {
        switch (event.kind, event.sensor) {
        case (.connected, _): return [.back(event.sensor)]
        case (.disconnected, _): return [.lost(event.sensor)]
        case let (.battery(level), .strap): return [.battery(level)]
        case let (.bodySensorLocation(location), .strap): return [.bodySensorLocation(location)]
        case let (.notification(characteristic, value), .strap) where characteristic == .heartRateMeasurement:
            return (try? HeartRateMeasurement(parsing: value)).map { [.heartRate($0)] } ?? []
        case let (.notification(characteristic, value), .distance):
            var samples = running(characteristic, value).map { [WorkoutSample.running($0)] } ?? []
            if machineHeartRateShown, let kind = SensorKind.measured(on: characteristic), let rate = kind.heartRate(in: value) {
                samples.append(.heartRate(HeartRateMeasurement(beatsPerMinute: UInt16(clamping: rate), sensorContact: .unsupported)))
            }
            return samples
        default:
            return []
        }
    }

    /// A foot pod's measurement as it is; a treadmill's speed and total distance as one. A bike's
    /// (wheel revolutions, an indoor bike's speed) is not running.
    private mutating func running(_ characteristic: BluetoothUUID, _ value: [UInt8]) -> RunningSpeedCadenceMeasurement? {
        if characteristic == SensorKind.runningSpeedCadence.measurementCharacteristic {
            return try? RunningSpeedCadenceMeasurement(parsing: value)
        }
        guard characteristic == SensorKind.treadmill.measurementCharacteristic, let data = try? TreadmillData(parsing: value) else { return nil }
        if let total = data.totalDistance { machineDistance = total }
        guard let speed = data.speedMetersPerSecond else { return nil }
        return RunningSpeedCadenceMeasurement(
            speed: UInt16(clamping: Int((speed * RunningSpeedCadenceMeasurement.speedUnitsPerMeterPerSecond).rounded())),
            cadence: 0, strideLength: nil,
            totalDistance: machineDistance.map { UInt32(clamping: Int(Double($0) * RunningSpeedCadenceMeasurement.totalDistanceUnitsPerMeter)) },
            isRunning: speed >= Self.runningSpeed)
    }

    /// A treadmill does not say whether its user walks or runs: above a brisk walk (7 km/h), running.
    static let runningSpeed = 7 / 3.6
}
