/// What the fitness machines' shared parts read from a data value of any machine kind (a
/// treadmill's 0x2ACD, an indoor bike's 0x2AD2): the distance derivation its counter and speed, the
/// heart-rate feed its rate. Each kind's value keeps the wire's units and converts here.
public protocol FitnessMachineData: SensorMeasurement where ParseError == FitnessMachineDataError {
    /// The rows of the kind's field table.
    associatedtype Field: FitnessMachineField
    /// Total Distance (uint24, 1 m): since the training session on the console began.
    var totalDistanceMeters: Int? { get }
    /// Instantaneous Speed (uint16, 1/100 km/h) in m/s; nil when More Data left it out.
    var speedMetersPerSecond: Double? { get }
}

/// The units FTMS 1.0 gives the fields both machine kinds share (§4.4.1, §4.9.1; GATT Specification
/// Supplement), and the "Data Not Available" values of their Expended Energy fields.
public enum FitnessMachineUnits {
    /// Speeds are uint16 in 1/100 km/h.
    public static let speedUnitsPerKilometerPerHour: Double = 100
    /// Metabolic Equivalent is uint8 in 1/10 MET.
    public static let metabolicEquivalentUnitsPerMET: Double = 10
    /// Total Energy and Energy Per Hour (uint16) that the machine does not know.
    public static let energyNotAvailable = 0xFFFF
    /// Energy Per Minute (uint8) that the machine does not know.
    public static let energyPerMinuteNotAvailable = 0xFF

    static let metersPerSecondPerKilometerPerHour: Double = 1 / 3.6

    /// A speed field's raw value in km/h.
    public static func kilometersPerHour(_ raw: Int) -> Double { Double(raw) / speedUnitsPerKilometerPerHour }
}
