/// Battery Level (0x2A19): a percentage, 0–100.
public struct BatteryLevel: Sendable, Hashable {
    public let percent: UInt8

    public init(percent: UInt8) throws(SingleByteValueError) {
        guard percent <= 100 else { throw .outOfRange(percent, maximum: 100) }
        self.percent = percent
    }

    public init<Bytes: Collection>(parsing value: Bytes) throws(SingleByteValueError) where Bytes.Element == UInt8 {
        try self.init(percent: try singleByte(of: value))
    }
}
