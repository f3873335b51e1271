/// What a fitness machine says of itself in its advertising, before any connection (FTMS 1.0 §3.1):
/// the Service Data AD type for 0x1826 holds Flags (uint8, §3.1.1; bit 0 Fitness Machine Available)
/// and Fitness Machine Type (uint16, §3.1.2; one bit per kind). Treadmills and indoor bikes share the
/// service; this is how `scan` tells them apart.
public struct FitnessMachineType: OptionSet, Sendable, Hashable {
    public let rawValue: UInt16
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    // Bits 1-4 are the cross trainer, step climber, stair climber and rower: no kinds here yet.
    public static let treadmill = FitnessMachineType(rawValue: 1 << 0)
    public static let indoorBike = FitnessMachineType(rawValue: 1 << 5)

    /// The types the service data announces; nil when it is too short to hold the type field. The
    /// Available flag is not required: a machine in use by another client still is this kind.
    public init?(serviceData: [UInt8]) {
        var reader = LittleEndianReader(serviceData)
        guard reader.readUInt8() != nil, let type = reader.readUInt16() else { return nil }
        rawValue = type
    }

    /// The Fitness Machine Service, 0x1826.
    public static let service = BluetoothUUID(assigned: 0x1826)
    /// Fitness Machine Feature, 0x2ACC.
    public static let featureCharacteristic = BluetoothUUID(assigned: 0x2ACC)
}
