extension SensorKind {
    /// A bike's speed and/or cadence sensor: Cycling Speed and Cadence Service (0x1816), CSC
    /// Measurement (0x2A5B).
    public static let cyclingSpeedCadence = SensorKind(
        name: "cycling speed and cadence",
        service: BluetoothUUID(assigned: 0x1816),
        measurementCharacteristic: BluetoothUUID(assigned: 0x2A5B),
        contribution: .distance(derivation: { CyclingDistance(wheelCircumference: $0.wheelCircumference) }),
        measurementType: CyclingSpeedCadenceMeasurement.self,
        parseHelp: """
        CSC Measurement (bike): {"wheelRevolutions":…,"lastWheelEventTime":…,
        "crankRevolutions":…,"lastCrankEventTime":…} (event times in 1/1024 s)
        """
    )
}

extension CyclingSpeedCadenceMeasurement: SensorMeasurement {
    public typealias ParseError = CyclingSpeedCadenceError

    /// `{"wheelRevolutions":10000,"lastWheelEventTime":1024,"crankRevolutions":null,"lastCrankEventTime":null}`:
    /// counts as sent, event times in the wire unit, 1/1024 s.
    public func describe(into fields: inout some MeasurementFieldWriter) {
        fields.optionalInteger("wheelRevolutions", wheel?.cumulativeRevolutions)
        fields.optionalInteger("lastWheelEventTime", wheel?.lastEventTime)
        fields.optionalInteger("crankRevolutions", crank?.cumulativeRevolutions)
        fields.optionalInteger("lastCrankEventTime", crank?.lastEventTime)
    }
}
