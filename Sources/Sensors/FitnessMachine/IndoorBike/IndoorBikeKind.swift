extension SensorKind {
    /// An indoor bike or smart trainer: Fitness Machine Service (0x1826) advertising the indoor bike
    /// type, Indoor Bike Data (0x2AD2).
    public static let indoorBike = SensorKind(
        name: "indoor bike",
        service: FitnessMachineType.service,
        measurementCharacteristic: BluetoothUUID(assigned: 0x2AD2),
        contribution: .distance(derivation: { _ in FitnessMachineDistance<IndoorBikeData>(maximumPlausibleSpeed: IndoorBikeData.maximumPlausibleSpeed) }),
        measurementType: IndoorBikeData.self,
        parseHelp: """
        Indoor Bike Data: {"moreData":…,"speed":…,"averageSpeed":…,"cadence":…,
        "averageCadence":…,"totalDistance":…,"resistanceLevel":…,"power":…,"averagePower":…,
        "totalEnergy":…,"energyPerHour":…,"energyPerMinute":…,"heartRate":…,
        "metabolicEquivalent":…,"elapsedTime":…,"remainingTime":…} (km/h, rpm, m, W, kcal,
        bpm, MET, s; null where the flags leave a field out or it says "Data Not Available")
        """,
        serviceDataMatches: { FitnessMachineType(serviceData: $0)?.contains(.indoorBike) ?? false },
        capabilities: .fitnessMachineFeature
    )
}

extension IndoorBikeData: FitnessMachineData {
    public typealias ParseError = FitnessMachineDataError

    /// A trainer's virtual speed on a steep simulated descent stays below a road bike's fastest
    /// (about 130 km/h), as for a wheel sensor: a total that grows faster was reset.
    public static let maximumPlausibleSpeed: Double = CyclingDistance.maximumPlausibleSpeed

    public var totalDistanceMeters: Int? { totalDistance }
    public var speedMetersPerSecond: Double? { speed.map { $0 * FitnessMachineUnits.metersPerSecondPerKilometerPerHour } }

    public func describe(into fields: inout some MeasurementFieldWriter) {
        fields.bool("moreData", moreData)
        fields.optionalDouble("speed", speed)
        fields.optionalDouble("averageSpeed", averageSpeed)
        fields.optionalDouble("cadence", cadence)
        fields.optionalDouble("averageCadence", averageCadence)
        fields.optionalInteger("totalDistance", totalDistance)
        fields.optionalInteger("resistanceLevel", resistanceLevel)
        fields.optionalInteger("power", power)
        fields.optionalInteger("averagePower", averagePower)
        fields.optionalInteger("totalEnergy", totalEnergy)
        fields.optionalInteger("energyPerHour", energyPerHour)
        fields.optionalInteger("energyPerMinute", energyPerMinute)
        fields.optionalInteger("heartRate", heartRate)
        fields.optionalDouble("metabolicEquivalent", metabolicEquivalent)
        fields.optionalInteger("elapsedTime", elapsedTime)
        fields.optionalInteger("remainingTime", remainingTime)
    }
}
