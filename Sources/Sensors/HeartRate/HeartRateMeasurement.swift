/// One Heart Rate Measurement (GATT characteristic 0x2A37), as the Bluetooth SIG's
/// Heart Rate Service 1.0 and GATT Specification Supplement define it.
public struct HeartRateMeasurement: Sendable, Hashable {
    /// Beats per minute. Straps send 0 while they cannot measure (e.g. taken off the chest).
    public var beatsPerMinute: UInt16
    public var sensorContact: SensorContact
    /// Cumulative energy in kilojoules since the last reset; saturates at 0xFFFF. Absent when the flag is clear.
    public var energyExpended: UInt16?
    /// RR intervals in the wire's unit, 1/1024 s, oldest first.
    public var rrIntervals: [UInt16]

    public init(
        beatsPerMinute: UInt16,
        sensorContact: SensorContact = .detected,
        energyExpended: UInt16? = nil,
        rrIntervals: [UInt16] = []
    ) {
        self.beatsPerMinute = beatsPerMinute
        self.sensorContact = sensorContact
        self.energyExpended = energyExpended
        self.rrIntervals = rrIntervals
    }

    /// RR intervals in seconds.
    public var rrIntervalSeconds: [Double] {
        rrIntervals.map { Double($0) / Double(HeartRateMeasurement.rrUnitsPerSecond) }
    }

    /// The RR unit of the wire format: 1/1024 s.
    public static let rrUnitsPerSecond: UInt16 = 1024
}

/// The Sensor Contact Status bits (flags bits 1–2).
public enum SensorContact: String, Sendable, Hashable, CaseIterable {
    /// Bit 2 clear: the strap does not report contact (00 or 01).
    case unsupported
    /// 10: supported, no skin contact.
    case notDetected = "not-detected"
    /// 11: supported, contact.
    case detected
}
