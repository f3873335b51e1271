/// Fitness Machine Feature (0x2ACC, read; FTMS 1.0 §4.3): what the machine can send and what it lets a
/// client set. Read once at connect, so that the log and `ctl status` say what this machine offers
/// (a treadmill without Total Distance gives its distance from its speed).
public struct FitnessMachineFeature: Sendable, Hashable {
    /// Fitness Machine Features field (uint32, §4.3.1.1).
    public var features: UInt32
    /// Target Setting Features field (uint32, §4.3.1.2).
    public var targetSettings: UInt32

    /// The value's 8 bytes; bytes after them are ignored (later versions may append).
    public init?(parsing value: [UInt8]) {
        var reader = LittleEndianReader(value)
        guard let features = reader.readUInt32(), let targets = reader.readUInt32() else { return nil }
        self.features = features
        targetSettings = targets
    }

    /// §4.3.1.1, bits 0–16 (17–31 reserved).
    static let featureNames = [
        "average speed", "cadence", "total distance", "inclination", "elevation gain", "pace", "step count",
        "resistance level", "stride count", "expended energy", "heart rate", "metabolic equivalent",
        "elapsed time", "remaining time", "power measurement", "force on belt and power output",
        "user data retention",
    ]

    /// §4.3.1.2, bits 0–16 (17–31 reserved).
    static let targetSettingNames = [
        "speed", "inclination", "resistance", "power", "heart rate", "expended energy", "step number",
        "stride number", "distance", "training time", "time in two heart-rate zones",
        "time in three heart-rate zones", "time in five heart-rate zones", "indoor bike simulation",
        "wheel circumference", "spin down", "cadence",
    ]

    /// "total distance, heart rate, elapsed time; targets: speed, inclination"; reserved bits left out.
    public var summary: String {
        func named(_ bits: UInt32, _ names: [String]) -> [String] {
            names.indices.filter { bits & (1 << $0) != 0 }.map { names[$0] }
        }
        let offered = named(features, Self.featureNames)
        var text = offered.isEmpty ? "no data fields" : offered.joined(separator: ", ")
        let targets = named(targetSettings, Self.targetSettingNames)
        if !targets.isEmpty { text += "; targets: " + targets.joined(separator: ", ") }
        return text
    }
}

extension SensorKind.Capabilities {
    /// Every fitness machine's Fitness Machine Feature (0x2ACC), said as `FitnessMachineFeature.summary`.
    static let fitnessMachineFeature = SensorKind.Capabilities(
        characteristic: FitnessMachineType.featureCharacteristic,
        summary: { FitnessMachineFeature(parsing: $0)?.summary }
    )
}
