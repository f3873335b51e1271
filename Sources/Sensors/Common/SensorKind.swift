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
    /// For kinds that share a service (the fitness machines: treadmill, indoor bike, … all 0x1826):
    /// whether a device's advertised Service Data for `service` says it is this kind. nil: the
    /// service alone tells the kind.
    let serviceDataMatches: (@Sendable ([UInt8]) -> Bool)?
    /// A characteristic of `service` read once at connect that says what the sensor offers, and
    /// how to say it in words (nil: the value makes no sense).
    public let capabilities: Capabilities?
    /// What `hrbridge parse --help` shows of the kind's JSON: "RSC Measurement (foot pod): {…}".
    public let parseHelp: String

    public struct Capabilities: Sendable {
        public let characteristic: BluetoothUUID
        public let summary: @Sendable ([UInt8]) -> String?
    }

    init(name: String, service: BluetoothUUID, measurementCharacteristic: BluetoothUUID, contribution: Contribution,
         measurementType: any SensorMeasurement.Type, parseHelp: String,
         serviceDataMatches: (@Sendable ([UInt8]) -> Bool)? = nil, capabilities: Capabilities? = nil) {
        self.name = name
        self.service = service
        self.measurementCharacteristic = measurementCharacteristic
        self.contribution = contribution
        self.measurementType = measurementType
        self.parseHelp = parseHelp
        self.serviceDataMatches = serviceDataMatches
        self.capabilities = capabilities
    }

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

    /// The heart rate one measurement value carries (a fitness machine's grip sensor or paired
    /// strap), nil when it carries none or does not parse.
    public func heartRate(in value: [UInt8]) -> Int? {
        (try? measurementType.init(parsing: value))?.heartRate
    }

    /// Whether a device advertising `services` (and `serviceData` by service) is of this kind.
    public func isAdvertised(by services: [BluetoothUUID], serviceData: [BluetoothUUID: [UInt8]]) -> Bool {
        guard services.contains(service) || serviceData[service] != nil else { return false }
        guard let serviceDataMatches else { return true }
        return serviceData[service].map(serviceDataMatches) ?? false
    }

    /// The registered kind whose measurements arrive on `characteristic`, if any.
    public static func measured(on characteristic: BluetoothUUID) -> SensorKind? {
        all.first { $0.measurementCharacteristic == characteristic }
    }

    /// The registered kind whose capabilities characteristic this is (kinds sharing a service share it).
    public static func capabilities(on characteristic: BluetoothUUID) -> Capabilities? {
        all.lazy.compactMap(\.capabilities).first { $0.characteristic == characteristic }
    }
}
