/// The flags byte that opens every 0x2A37 value. Bits 5–7 are reserved for future use:
/// we ignore them rather than reject, so a newer strap still works.
struct MeasurementFlags: OptionSet {
    let rawValue: UInt8

    static let sixteenBitRate = MeasurementFlags(rawValue: 1 << 0)
    static let contactDetected = MeasurementFlags(rawValue: 1 << 1)
    static let contactSupported = MeasurementFlags(rawValue: 1 << 2)
    static let energyExpendedPresent = MeasurementFlags(rawValue: 1 << 3)
    static let rrIntervalsPresent = MeasurementFlags(rawValue: 1 << 4)

    var sensorContact: SensorContact {
        guard contains(.contactSupported) else { return .unsupported }
        return contains(.contactDetected) ? .detected : .notDetected
    }

    init(rawValue: UInt8) { self.rawValue = rawValue }

    init(_ contact: SensorContact) {
        switch contact {
        case .unsupported: self = []
        case .notDetected: self = [.contactSupported]
        case .detected: self = [.contactSupported, .contactDetected]
        }
    }
}
