/// A kind of sensor the bridge can read: the GATT service and characteristic that carry its
/// measurements, what it gives the workout, and how one measurement reads. Each kind is declared in
/// its own folder; `SensorKind.all` (SensorKinds.swift) is the one list that registers them.
public struct SensorKind: Sendable {
    /// In words, for people: "running speed and cadence".
    public let name: String
    public let service: BluetoothUUID
    public let measurementCharacteristic: BluetoothUUID
    public let contribution: Contribution
    let measurementType: any SensorMeasurement.Type

    /// What a kind's measurements give the workout (DESIGN §2b: one activity fed by several sensors).
    public enum Contribution: Sendable {
        /// The rate, and the sensor-lost state when it stops.
        case heartRate
        /// Meters covered, from the kind's counters or speed: a fresh derivation per sensor.
        case distance(derivation: @Sendable (DistanceSettings) -> any DistanceDerivation)

        public var givesDistance: Bool {
            if case .distance = self { return true }
            return false
        }
    }

    /// A new derivation of this kind's distance, or nil when the kind gives none.
    public func distanceDerivation(_ settings: DistanceSettings) -> (any DistanceDerivation)? {
        guard case let .distance(derivation) = contribution else { return nil }
        return derivation(settings)
    }

    /// Reads one value of this kind's measurement characteristic and writes its fields; throws the
    /// kind's parse error (whose description says what is wrong with the bytes).
    public func describe(_ value: [UInt8], into fields: inout some MeasurementFieldWriter) throws {
        try measurementType.init(parsing: value).describe(into: &fields)
    }

    /// The registered kind whose measurements arrive on `characteristic`, if any.
    public static func measured(on characteristic: BluetoothUUID) -> SensorKind? {
        all.first { $0.measurementCharacteristic == characteristic }
    }
}
