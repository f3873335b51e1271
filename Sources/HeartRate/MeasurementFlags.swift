/// The flags byte that opens every 0x2A37 value. Bits 5–7 are reserved for future use:
/// we ignore them rather than reject, so a newer strap still works.
@usableFromInline
struct MeasurementFlags: OptionSet, Sendable {
    @usableFromInline let rawValue: UInt8

    @usableFromInline static let sixteenBitRate = MeasurementFlags(rawValue: 1 << 0)
    @usableFromInline static let contactDetected = MeasurementFlags(rawValue: 1 << 1)
    @usableFromInline static let contactSupported = MeasurementFlags(rawValue: 1 << 2)
    @usableFromInline static let energyExpendedPresent = MeasurementFlags(rawValue: 1 << 3)
    @usableFromInline static let rrIntervalsPresent = MeasurementFlags(rawValue: 1 << 4)

    @inlinable
    var sensorContact: SensorContact {
        guard contains(.contactSupported) else { return .unsupported }
        return contains(.contactDetected) ? .detected : .notDetected
    }

    @inlinable
    init(rawValue: UInt8) { self.rawValue = rawValue }

    init(_ contact: SensorContact) {
        switch contact {
        case .unsupported: self = []
        case .notDetected: self = [.contactSupported]
        case .detected: self = [.contactSupported, .contactDetected]
        }
    }
}
