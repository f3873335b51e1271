extension RunningSpeedCadenceMeasurement {
    /// The 0x2A53 bytes a foot pod would send for this measurement: flags, speed, cadence, then the
    /// stride length and total distance the flags announce, little-endian.
    public func encoded() -> [UInt8] {
        var flags: UInt8 = 0
        if strideLength != nil { flags |= 0x01 }
        if totalDistance != nil { flags |= 0x02 }
        if isRunning { flags |= 0x04 }
        var bytes: [UInt8] = [flags, UInt8(truncatingIfNeeded: speed), UInt8(truncatingIfNeeded: speed >> 8), cadence]
        if let strideLength { bytes += [UInt8(truncatingIfNeeded: strideLength), UInt8(truncatingIfNeeded: strideLength >> 8)] }
        if let totalDistance { bytes += (0..<4).map { UInt8(truncatingIfNeeded: totalDistance >> (8 * $0)) } }
        return bytes
    }
}
