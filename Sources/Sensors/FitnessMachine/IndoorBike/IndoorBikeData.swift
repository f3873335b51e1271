/// One Indoor Bike Data value (0x2AD2, notify; FTMS 1.0 §4.9, the GATT Specification Supplement's
/// field table): a 16-bit flags field, then the fields its bits announce, in this order. A record
/// longer than a notification is split, every part but the last with More Data set (§4.19). The
/// raw values stay as sent (`fields`); the properties convert them to the specification's units.
public struct IndoorBikeData: Sendable, Hashable {
    public let fields: FitnessMachineFields<Field>

    public init(parsing value: [UInt8]) throws(FitnessMachineDataError) {
        fields = try FitnessMachineFields(parsing: value)
    }

    /// The rows of the field table: flags bit, size, signedness (§4.9.1.1 for the bits; bit 1 is
    /// Average Speed and bit 2 Instantaneous Cadence, as the field order has them, whatever the
    /// SIG's 2017 XML rendering of the table swapped).
    public enum Field: CaseIterable, FitnessMachineField {
        case instantaneousSpeed, averageSpeed, instantaneousCadence, averageCadence, totalDistance
        case resistanceLevel, instantaneousPower, averagePower
        case totalEnergy, energyPerHour, energyPerMinute, heartRate, metabolicEquivalent
        case elapsedTime, remainingTime

        public var flagBit: Int {
            switch self {
            case .instantaneousSpeed: 0 // More Data, inverted: present when the bit is clear
            case .averageSpeed: 1
            case .instantaneousCadence: 2
            case .averageCadence: 3
            case .totalDistance: 4
            case .resistanceLevel: 5
            case .instantaneousPower: 6
            case .averagePower: 7
            case .totalEnergy, .energyPerHour, .energyPerMinute: 8
            case .heartRate: 9
            case .metabolicEquivalent: 10
            case .elapsedTime: 11
            case .remainingTime: 12
            }
        }

        public var size: Int {
            switch self {
            case .energyPerMinute, .heartRate, .metabolicEquivalent: 1
            case .totalDistance: 3
            default: 2
            }
        }

        public var isSigned: Bool {
            [.resistanceLevel, .instantaneousPower, .averagePower].contains(self)
        }

        public var name: String {
            switch self {
            case .instantaneousSpeed: "instantaneous speed"
            case .averageSpeed: "average speed"
            case .instantaneousCadence: "instantaneous cadence"
            case .averageCadence: "average cadence"
            case .totalDistance: "total distance"
            case .resistanceLevel: "resistance level"
            case .instantaneousPower: "instantaneous power"
            case .averagePower: "average power"
            case .totalEnergy: "total energy"
            case .energyPerHour: "energy per hour"
            case .energyPerMinute: "energy per minute"
            case .heartRate: "heart rate"
            case .metabolicEquivalent: "metabolic equivalent"
            case .elapsedTime: "elapsed time"
            case .remainingTime: "remaining time"
            }
        }
    }

    /// Cadences are uint16 in 1/2 per minute.
    public static let cadenceUnitsPerRPM: Double = 2

    public var moreData: Bool { fields.moreData }
    /// km/h
    public var speed: Double? { fields[.instantaneousSpeed].map(FitnessMachineUnits.kilometersPerHour) }
    public var averageSpeed: Double? { fields[.averageSpeed].map(FitnessMachineUnits.kilometersPerHour) }
    /// revolutions per minute
    public var cadence: Double? { fields[.instantaneousCadence].map { Double($0) / Self.cadenceUnitsPerRPM } }
    public var averageCadence: Double? { fields[.averageCadence].map { Double($0) / Self.cadenceUnitsPerRPM } }
    /// m since the training session began
    public var totalDistance: Int? { fields[.totalDistance] }
    /// unitless, resolution 1
    public var resistanceLevel: Int? { fields[.resistanceLevel] }
    /// W
    public var power: Int? { fields[.instantaneousPower] }
    public var averagePower: Int? { fields[.averagePower] }
    /// kcal
    public var totalEnergy: Int? { fields.value(.totalEnergy, unlessNotAvailable: FitnessMachineUnits.energyNotAvailable) }
    public var energyPerHour: Int? { fields.value(.energyPerHour, unlessNotAvailable: FitnessMachineUnits.energyNotAvailable) }
    public var energyPerMinute: Int? { fields.value(.energyPerMinute, unlessNotAvailable: FitnessMachineUnits.energyPerMinuteNotAvailable) }
    /// beats per minute
    public var heartRate: Int? { fields[.heartRate] }
    /// MET
    public var metabolicEquivalent: Double? { fields[.metabolicEquivalent].map { Double($0) / FitnessMachineUnits.metabolicEquivalentUnitsPerMET } }
    /// s
    public var elapsedTime: Int? { fields[.elapsedTime] }
    public var remainingTime: Int? { fields[.remainingTime] }
}
