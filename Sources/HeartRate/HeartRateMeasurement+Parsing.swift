extension HeartRateMeasurement {
    /// Reads a 0x2A37 value: flags, rate (u8 or u16), energy expended (u16, optional),
    /// then RR intervals (u16 each), all little-endian.
    /// Inlinable so callers in other modules get it specialized for their byte container:
    /// this runs once per notification.
    @inlinable
    public init<Bytes: Collection>(parsing value: Bytes) throws(MeasurementError)
    where Bytes.Element == UInt8, Bytes.Index == Int {
        var reader = LittleEndianReader(value)
        guard let flagsByte = reader.readUInt8() else { throw .empty }
        let flags = MeasurementFlags(rawValue: flagsByte)

        let rate: UInt16
        if flags.contains(.sixteenBitRate) {
            guard let wide = reader.readUInt16() else {
                throw .truncatedRate(bits: 16, bytesAvailable: reader.remaining)
            }
            rate = wide
        } else {
            guard let narrow = reader.readUInt8() else {
                throw .truncatedRate(bits: 8, bytesAvailable: reader.remaining)
            }
            rate = UInt16(narrow)
        }

        var energy: UInt16?
        if flags.contains(.energyExpendedPresent) {
            guard let kilojoules = reader.readUInt16() else {
                throw .truncatedEnergyExpended(bytesAvailable: reader.remaining)
            }
            energy = kilojoules
        }

        var intervals: [UInt16] = []
        if flags.contains(.rrIntervalsPresent) {
            guard reader.remaining % 2 == 0 else { throw .oddRRByte(rrBytes: reader.remaining) }
            intervals.reserveCapacity(reader.remaining / 2)
            while let interval = reader.readUInt16() { intervals.append(interval) }
        } else if reader.remaining > 0 {
            throw .unexpectedTrailingBytes(count: reader.remaining)
        }

        self.init(
            beatsPerMinute: rate,
            sensorContact: flags.sensorContact,
            energyExpended: energy,
            rrIntervals: intervals
        )
    }
}

/// A cursor over little-endian bytes that answers nil instead of reading past the end.
@usableFromInline
struct LittleEndianReader<Bytes: Collection> where Bytes.Element == UInt8, Bytes.Index == Int {
    @usableFromInline let bytes: Bytes
    @usableFromInline var index: Int

    @inlinable
    init(_ bytes: Bytes) {
        self.bytes = bytes
        self.index = bytes.startIndex
    }

    @inlinable
    var remaining: Int { bytes.endIndex - index }

    @inlinable
    mutating func readUInt8() -> UInt8? {
        guard remaining >= 1 else { return nil }
        defer { index += 1 }
        return bytes[index]
    }

    @inlinable
    mutating func readUInt16() -> UInt16? {
        guard remaining >= 2 else { return nil }
        defer { index += 2 }
        return UInt16(bytes[index]) | UInt16(bytes[index + 1]) << 8
    }
}
