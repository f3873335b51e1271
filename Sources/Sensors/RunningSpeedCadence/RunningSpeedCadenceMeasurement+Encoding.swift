extension RunningSpeedCadenceMeasurement {
    /// The 0x2A53 bytes a foot pod would send for this measurement: flags, speed, cadence, then the
    /// stride length and total distance the flags announce, little-endian.
    public func encoded() -> [UInt8] {
        var flags: UInt8 = 0
        if strideLength != nil { flags |= 0x01 }
        if totalDistance != nil { flags |= 0x02 }
        if isRunning { flags |= 0x04 }
        var bytes: [UInt8] = [flags]
        appendLittleEndian(speed, to: &bytes)
        bytes.append(cadence)
        if let strideLength { appendLittleEndian(strideLength, to: &bytes) }
        if let totalDistance { appendLittleEndian(totalDistance, to: &bytes) }
        return bytes
    }
}
