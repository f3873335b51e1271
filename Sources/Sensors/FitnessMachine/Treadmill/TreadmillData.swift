/// One Treadmill Data value (0x2ACD, notify; FTMS 1.0 §4.4, the GATT Specification Supplement's
/// field table): a 16-bit flags field, then the fields its bits announce, in this order. A record
/// longer than a notification is split, every part but the last with More Data set (§4.19). The
/// raw values stay as sent (`fields`); the properties convert them to the specification's units.
public struct TreadmillData: Sendable, Hashable {
    public let fields: FitnessMachineFields<Field>

    public init(parsing value: [UInt8]) throws(FitnessMachineDataError) {
        fields = try FitnessMachineFields(parsing: value)
    }

    /// The rows of the field table: flags bit, size, signedness (§4.4.1.1 for the bits).
    public enum Field: CaseIterable, FitnessMachineField {
        case instantaneousSpeed, averageSpeed, totalDistance, inclination, rampAngleSetting
        case positiveElevationGain, negativeElevationGain, instantaneousPace, averagePace
        case totalEnergy, energyPerHour, energyPerMinute, heartRate, metabolicEquivalent
        case elapsedTime, remainingTime, forceOnBelt, powerOutput

        public var flagBit: Int {
            switch self {
            case .instantaneousSpeed: 0 // More Data, inverted: present when the bit is clear
            case .averageSpeed: 1
            case .totalDistance: 2
            case .inclination, .rampAngleSetting: 3
            case .positiveElevationGain, .negativeElevationGain: 4
            case .instantaneousPace: 5
            case .averagePace: 6
            case .totalEnergy, .energyPerHour, .energyPerMinute: 7
            case .heartRate: 8
            case .metabolicEquivalent: 9
            case .elapsedTime: 10
            case .remainingTime: 11
            case .forceOnBelt, .powerOutput: 12
            }
        }

        public var size: Int {
            switch self {
            case .instantaneousPace, .averagePace, .energyPerMinute, .heartRate, .metabolicEquivalent: 1
            case .totalDistance: 3
            default: 2
            }
        }

        public var isSigned: Bool {
            [.inclination, .rampAngleSetting, .forceOnBelt, .powerOutput].contains(self)
        }

        public var name: String {
            switch self {
            case .instantaneousSpeed: "instantaneous speed"
            case .averageSpeed: "average speed"
            case .totalDistance: "total distance"
            case .inclination: "inclination"
            case .rampAngleSetting: "ramp angle setting"
            case .positiveElevationGain: "positive elevation gain"
            case .negativeElevationGain: "negative elevation gain"
            case .instantaneousPace: "instantaneous pace"
            case .averagePace: "average pace"
            case .totalEnergy: "total energy"
            case .energyPerHour: "energy per hour"
            case .energyPerMinute: "energy per minute"
            case .heartRate: "heart rate"
            case .metabolicEquivalent: "metabolic equivalent"
            case .elapsedTime: "elapsed time"
            case .remainingTime: "remaining time"
            case .forceOnBelt: "force on belt"
            case .powerOutput: "power output"
            }
        }
    }

    /// "Data Not Available" of Inclination, Ramp Angle Setting, Force on Belt and Power Output
    /// (sint16, §4.4.1).
    public static let signedNotAvailable = 0x7FFF
    /// Inclination and Ramp Angle Setting are in 1/10 % and 1/10 degree; elevation gains in 1/10 m.
    public static let tenthsPerUnit: Double = 10
    /// Instantaneous and Average Pace are uint8 in 1/10 km/min (FTMS 1.0).
    public static let paceUnitsPerKilometerPerMinute: Double = 10

    public var moreData: Bool { fields.moreData }
    /// km/h
    public var speed: Double? { fields[.instantaneousSpeed].map(FitnessMachineUnits.kilometersPerHour) }
    public var averageSpeed: Double? { fields[.averageSpeed].map(FitnessMachineUnits.kilometersPerHour) }
    /// m since the training session began
    public var totalDistance: Int? { fields[.totalDistance] }
    /// %
    public var inclination: Double? { tenths(fields.value(.inclination, unlessNotAvailable: Self.signedNotAvailable)) }
    /// degrees
    public var rampAngle: Double? { tenths(fields.value(.rampAngleSetting, unlessNotAvailable: Self.signedNotAvailable)) }
    /// m
    public var positiveElevationGain: Double? { tenths(fields[.positiveElevationGain]) }
    public var negativeElevationGain: Double? { tenths(fields[.negativeElevationGain]) }
    /// km/min
    public var instantaneousPace: Double? { fields[.instantaneousPace].map { Double($0) / Self.paceUnitsPerKilometerPerMinute } }
    public var averagePace: Double? { fields[.averagePace].map { Double($0) / Self.paceUnitsPerKilometerPerMinute } }
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
    /// N
    public var forceOnBelt: Int? { fields.value(.forceOnBelt, unlessNotAvailable: Self.signedNotAvailable) }
    /// W
    public var powerOutput: Int? { fields.value(.powerOutput, unlessNotAvailable: Self.signedNotAvailable) }

    private func tenths(_ raw: Int?) -> Double? { raw.map { Double($0) / Self.tenthsPerUnit } }
}
