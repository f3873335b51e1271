extension RunningSpeedCadenceMeasurement {
    /// Reads a 0x2A53 value: flags, speed (u16), cadence (u8), stride length (u16, flags bit 0), total
    /// distance (u32, flags bit 1), little-endian. Reserved flag bits (3–7) and bytes after the flagged
    /// fields are ignored, unlike 0x2A37: RSCS lets later versions append fields.
    public init<Bytes: Collection>(parsing value: Bytes) throws(RunningSpeedCadenceError)
    where Bytes.Element == UInt8, Bytes.Index == Int {
        var reader = LittleEndianReader(value)
        guard let flags = reader.readUInt8() else { throw .empty }
        guard let speed = reader.readUInt16() else { throw .truncated(.speed, bytesAvailable: reader.remaining) }
        guard let cadence = reader.readUInt8() else { throw .truncated(.cadence, bytesAvailable: reader.remaining) }

        var strideLength: UInt16?
        if flags & Self.strideLengthPresent != 0 {
            guard let stride = reader.readUInt16() else {
                throw .truncated(.strideLength, bytesAvailable: reader.remaining)
            }
            strideLength = stride
        }
        var totalDistance: UInt32?
        if flags & Self.totalDistancePresent != 0 {
            guard let distance = reader.readUInt32() else {
                throw .truncated(.totalDistance, bytesAvailable: reader.remaining)
            }
            totalDistance = distance
        }
        self.init(speed: speed, cadence: cadence, strideLength: strideLength, totalDistance: totalDistance,
                  isRunning: flags & Self.running != 0)
    }

    private static let strideLengthPresent: UInt8 = 1 << 0
    private static let totalDistancePresent: UInt8 = 1 << 1
    private static let running: UInt8 = 1 << 2
}
