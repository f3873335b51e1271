/// A 0x2A37 value checked against its flags, without copying anything out of it: the rate, contact
/// and energy, and where the RR intervals sit. `HeartRateMeasurement(parsing:)` builds on it; the live
/// state uses it alone, because it needs only rate and contact, once per notification, and the RR
/// list would cost an allocation each time.
public struct HeartRateMeasurementLayout: Sendable, Hashable {
    public var beatsPerMinute: UInt16
    public var sensorContact: SensorContact
    public var energyExpended: UInt16?
    /// Index of the first RR interval's low byte in the parsed value.
    public var rrIntervalsStart: Int
    public var rrIntervalCount: Int

    /// Reads flags, rate (u8 or u16), energy expended (u16, optional), then checks that the rest is
    /// whole RR intervals (u16 each) if the flags announce them, or nothing. Little-endian throughout.
    /// Inlinable so callers in other modules get it specialized for their byte container, and inlined:
    /// the live state parses every notification with it, and as a call it cost measurably more.
    @inlinable @inline(__always)
    public init<Bytes: Collection>(parsing value: Bytes) throws(HeartRateMeasurementError)
    where Bytes.Element == UInt8, Bytes.Index == Int {
        var reader = LittleEndianReader(value)
        guard let flagsByte = reader.readUInt8() else { throw .empty }
        let flags = HeartRateMeasurementFlags(rawValue: flagsByte)

        if flags.contains(.sixteenBitRate) {
            guard let wide = reader.readUInt16() else {
                throw .truncatedRate(bits: 16, bytesAvailable: reader.remaining)
            }
            beatsPerMinute = wide
        } else {
            guard let narrow = reader.readUInt8() else {
                throw .truncatedRate(bits: 8, bytesAvailable: reader.remaining)
            }
            beatsPerMinute = UInt16(narrow)
        }
        sensorContact = flags.sensorContact

        energyExpended = nil
        if flags.contains(.energyExpendedPresent) {
            guard let kilojoules = reader.readUInt16() else {
                throw .truncatedEnergyExpended(bytesAvailable: reader.remaining)
            }
            energyExpended = kilojoules
        }

        rrIntervalsStart = reader.index
        if flags.contains(.rrIntervalsPresent) {
            guard reader.remaining % 2 == 0 else { throw .oddRRByte(rrBytes: reader.remaining) }
            rrIntervalCount = reader.remaining / 2
        } else if reader.remaining > 0 {
            throw .unexpectedTrailingBytes(count: reader.remaining)
        } else {
            rrIntervalCount = 0
        }
    }
}
