extension SensorKind {
    /// A treadmill: Fitness Machine Service (0x1826) advertising the treadmill type, Treadmill Data (0x2ACD).
    public static let treadmill = SensorKind(
        name: "treadmill",
        service: FitnessMachineType.service,
        measurementCharacteristic: BluetoothUUID(assigned: 0x2ACD),
        contribution: .distance(derivation: { _ in FitnessMachineDistance<TreadmillData>(maximumPlausibleSpeed: TreadmillData.maximumPlausibleSpeed) }),
        measurementType: TreadmillData.self,
        parseHelp: """
        Treadmill Data: {"moreData":…,"speed":…,"averageSpeed":…,"totalDistance":…,
        "inclination":…,"rampAngle":…,"positiveElevationGain":…,"negativeElevationGain":…,
        "instantaneousPace":…,"averagePace":…,"totalEnergy":…,"energyPerHour":…,
        "energyPerMinute":…,"heartRate":…,"metabolicEquivalent":…,"elapsedTime":…,
        "remainingTime":…,"forceOnBelt":…,"powerOutput":…} (km/h, m, %, degrees, km/min,
        kcal, bpm, MET, s, N, W; null where the flags leave a field out or it says
        "Data Not Available")
        """,
        serviceDataMatches: { FitnessMachineType(serviceData: $0)?.contains(.treadmill) ?? false },
        capabilities: .fitnessMachineFeature
    )
}

extension TreadmillData: FitnessMachineData {
    public typealias ParseError = FitnessMachineDataError

    /// Above any treadmill's belt (they stop near 25 km/h) and a sprinter's top speed: a total that
    /// grows faster was reset or belongs to another session.
    public static let maximumPlausibleSpeed: Double = 12.5

    public var totalDistanceMeters: Int? { totalDistance }
    public var speedMetersPerSecond: Double? { speed.map { $0 * FitnessMachineUnits.metersPerSecondPerKilometerPerHour } }

    public func describe(into fields: inout some MeasurementFieldWriter) {
        fields.bool("moreData", moreData)
        fields.optionalDouble("speed", speed)
        fields.optionalDouble("averageSpeed", averageSpeed)
        fields.optionalInteger("totalDistance", totalDistance)
        fields.optionalDouble("inclination", inclination)
        fields.optionalDouble("rampAngle", rampAngle)
        fields.optionalDouble("positiveElevationGain", positiveElevationGain)
        fields.optionalDouble("negativeElevationGain", negativeElevationGain)
        fields.optionalDouble("instantaneousPace", instantaneousPace)
        fields.optionalDouble("averagePace", averagePace)
        fields.optionalInteger("totalEnergy", totalEnergy)
        fields.optionalInteger("energyPerHour", energyPerHour)
        fields.optionalInteger("energyPerMinute", energyPerMinute)
        fields.optionalInteger("heartRate", heartRate)
        fields.optionalDouble("metabolicEquivalent", metabolicEquivalent)
        fields.optionalInteger("elapsedTime", elapsedTime)
        fields.optionalInteger("remainingTime", remainingTime)
        fields.optionalInteger("forceOnBelt", forceOnBelt)
        fields.optionalInteger("powerOutput", powerOutput)
    }
}
