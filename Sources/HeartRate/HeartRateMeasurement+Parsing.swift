extension HeartRateMeasurement {
    /// Reads a 0x2A37 value: flags, rate (u8 or u16), energy expended (u16, optional),
    /// then RR intervals (u16 each), all little-endian (checked by `MeasurementLayout`).
    /// Inlinable so callers in other modules get it specialized for their byte container:
    /// this runs once per notification.
    @inlinable
    public init<Bytes: Collection>(parsing value: Bytes) throws(MeasurementError)
    where Bytes.Element == UInt8, Bytes.Index == Int {
        let layout = try MeasurementLayout(parsing: value)
        var intervals: [UInt16] = []
        if layout.rrIntervalCount > 0 {
            intervals.reserveCapacity(layout.rrIntervalCount)
            var reader = LittleEndianReader(value)
            reader.index = layout.rrIntervalsStart
            while let interval = reader.readUInt16() { intervals.append(interval) }
        }
        self.init(
            beatsPerMinute: layout.beatsPerMinute,
            sensorContact: layout.sensorContact,
            energyExpended: layout.energyExpended,
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
