extension SensorKind {
    /// Every sensor kind the bridge knows. A new kind is its folder (UUIDs, parser, description,
    /// what it contributes) plus one entry here.
    public static let all: [SensorKind] = [
        .heartRate,
        .runningSpeedCadence,
        .cyclingSpeedCadence,
        .treadmill,
        .indoorBike,
    ]
}
