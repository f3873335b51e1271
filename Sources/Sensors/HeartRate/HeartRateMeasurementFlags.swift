/// The flags byte that opens every 0x2A37 value. Bits 5–7 are reserved for future use:
/// we ignore them rather than reject, so a newer strap still works.
@usableFromInline
struct HeartRateMeasurementFlags: OptionSet, Sendable {
    @usableFromInline let rawValue: UInt8

    // Computed, not stored statics: a stored static is a lazily initialized global, checked on every
    // access from the per-notification parse.
    @inlinable static var sixteenBitRate: HeartRateMeasurementFlags { HeartRateMeasurementFlags(rawValue: 1 << 0) }
    @inlinable static var contactDetected: HeartRateMeasurementFlags { HeartRateMeasurementFlags(rawValue: 1 << 1) }
    @inlinable static var contactSupported: HeartRateMeasurementFlags { HeartRateMeasurementFlags(rawValue: 1 << 2) }
    @inlinable static var energyExpendedPresent: HeartRateMeasurementFlags { HeartRateMeasurementFlags(rawValue: 1 << 3) }
    @inlinable static var rrIntervalsPresent: HeartRateMeasurementFlags { HeartRateMeasurementFlags(rawValue: 1 << 4) }

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
