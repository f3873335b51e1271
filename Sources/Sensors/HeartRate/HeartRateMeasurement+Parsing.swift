extension HeartRateMeasurement {
    /// Reads a 0x2A37 value: flags, rate (u8 or u16), energy expended (u16, optional),
    /// then RR intervals (u16 each), all little-endian (checked by `HeartRateMeasurementLayout`).
    /// Inlinable so callers in other modules get it specialized for their byte container:
    /// this runs once per notification.
    @inlinable
    public init<Bytes: Collection>(parsing value: Bytes) throws(HeartRateMeasurementError)
    where Bytes.Element == UInt8, Bytes.Index == Int {
        let layout = try HeartRateMeasurementLayout(parsing: value)
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
