extension CyclingSpeedCadenceMeasurement {
    /// Reads a 0x2A5B value: flags, then wheel revolutions (u32) and last wheel event time (u16) if
    /// flags bit 0, then crank revolutions (u16) and last crank event time (u16) if bit 1,
    /// little-endian. Reserved flag bits (2–7) and bytes after the flagged fields are ignored, unlike
    /// 0x2A37: CSCS lets later versions append fields.
    public init<Bytes: Collection>(parsing value: Bytes) throws(CyclingSpeedCadenceError)
    where Bytes.Element == UInt8, Bytes.Index == Int {
        var reader = LittleEndianReader(value)
        guard let flags = reader.readUInt8() else { throw .empty }

        var wheel: WheelRevolutions?
        if flags & Self.wheelDataPresent != 0 {
            guard let revolutions = reader.readUInt32() else {
                throw .truncated(.wheelRevolutions, bytesAvailable: reader.remaining)
            }
            guard let eventTime = reader.readUInt16() else {
                throw .truncated(.lastWheelEventTime, bytesAvailable: reader.remaining)
            }
            wheel = WheelRevolutions(cumulativeRevolutions: revolutions, lastEventTime: eventTime)
        }
        var crank: CrankRevolutions?
        if flags & Self.crankDataPresent != 0 {
            guard let revolutions = reader.readUInt16() else {
                throw .truncated(.crankRevolutions, bytesAvailable: reader.remaining)
            }
            guard let eventTime = reader.readUInt16() else {
                throw .truncated(.lastCrankEventTime, bytesAvailable: reader.remaining)
            }
            crank = CrankRevolutions(cumulativeRevolutions: revolutions, lastEventTime: eventTime)
        }
        self.init(wheel: wheel, crank: crank)
    }

    private static let wheelDataPresent: UInt8 = 1 << 0
    private static let crankDataPresent: UInt8 = 1 << 1
}
