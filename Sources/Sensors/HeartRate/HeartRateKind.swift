extension SensorKind {
    /// A chest strap or other Heart Rate Service (0x180D) sensor.
    public static let heartRate = SensorKind(
        name: "heart rate",
        service: .heartRateService,
        measurementCharacteristic: .heartRateMeasurement,
        contribution: .heartRate,
        measurementType: HeartRateMeasurement.self,
        parseHelp: """
        Heart Rate Measurement: {"bpm":…,"contact":…,"energyExpended":…,"rr":[…]}
        (rr in 1/1024 s)
        """
    )
}

extension HeartRateMeasurement: SensorMeasurement {
    public typealias ParseError = HeartRateMeasurementError

    /// `{"bpm":72,"contact":"detected","energyExpended":null,"rr":[768]}`: rr in the wire unit, 1/1024 s.
    public func describe(into fields: inout some MeasurementFieldWriter) {
        fields.integer("bpm", beatsPerMinute)
        fields.string("contact", sensorContact.rawValue)
        fields.optionalInteger("energyExpended", energyExpended)
        fields.integers("rr", rrIntervals)
    }
}
