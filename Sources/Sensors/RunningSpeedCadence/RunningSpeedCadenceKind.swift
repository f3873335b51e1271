extension SensorKind {
    /// A foot pod: Running Speed and Cadence Service (0x1814), RSC Measurement (0x2A53).
    public static let runningSpeedCadence = SensorKind(
        name: "running speed and cadence",
        service: BluetoothUUID(assigned: 0x1814),
        measurementCharacteristic: BluetoothUUID(assigned: 0x2A53),
        contribution: .distance(derivation: { _ in RunningDistance() }),
        measurementType: RunningSpeedCadenceMeasurement.self,
        parseHelp: """
        RSC Measurement (foot pod): {"speed":…,"cadence":…,"strideLength":…,
        "totalDistance":…,"running":…} (m/s and m; null where the flags leave a field out)
        """
    )
}

extension RunningSpeedCadenceMeasurement: SensorMeasurement {
    public typealias ParseError = RunningSpeedCadenceError

    /// `{"speed":3.5,"cadence":180,"strideLength":1.25,"totalDistance":null,"running":true}`: speed in
    /// m/s, stride length and total distance in meters.
    public func describe(into fields: inout some MeasurementFieldWriter) {
        fields.double("speed", speedMetersPerSecond)
        fields.integer("cadence", cadence)
        fields.optionalDouble("strideLength", strideLengthMeters)
        fields.optionalDouble("totalDistance", totalDistanceMeters)
        fields.bool("running", isRunning)
    }
}
