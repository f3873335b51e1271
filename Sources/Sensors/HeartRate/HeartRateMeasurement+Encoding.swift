extension HeartRateMeasurement {
    /// How the rate field is written.
    public enum RateFormat: Sendable, CaseIterable {
        /// 8 bits when the rate fits, as straps do at rest; 16 bits above 255 bpm.
        case compact
        case sixteenBit
    }

    /// The 0x2A37 bytes a strap would send for this measurement.
    public func encoded(rateFormat: RateFormat = .compact) -> [UInt8] {
        let wide = rateFormat == .sixteenBit || beatsPerMinute > UInt16(UInt8.max)
        var flags = HeartRateMeasurementFlags(sensorContact)
        if wide { flags.insert(.sixteenBitRate) }
        if energyExpended != nil { flags.insert(.energyExpendedPresent) }
        if !rrIntervals.isEmpty { flags.insert(.rrIntervalsPresent) }

        var bytes: [UInt8] = [flags.rawValue]
        bytes.reserveCapacity(5 + 2 * rrIntervals.count)
        if wide { appendLittleEndian(beatsPerMinute, to: &bytes) } else { bytes.append(UInt8(beatsPerMinute)) }
        if let energyExpended { appendLittleEndian(energyExpended, to: &bytes) }
        for interval in rrIntervals { appendLittleEndian(interval, to: &bytes) }
        return bytes
    }
}
