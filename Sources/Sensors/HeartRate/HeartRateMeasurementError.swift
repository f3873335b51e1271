/// Why a 0x2A37 value could not be read. The description says what the bytes promised
/// and what was there, so a user can compare it with btmon or nRF Connect.
public enum HeartRateMeasurementError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Zero bytes: not even a flags byte.
    case empty
    /// The flags announce an 8- or 16-bit rate but fewer bytes follow.
    case truncatedRate(bits: Int, bytesAvailable: Int)
    /// The flags announce Energy Expended (2 bytes) but fewer follow.
    case truncatedEnergyExpended(bytesAvailable: Int)
    /// RR intervals are 2 bytes each; an odd count leaves half an interval.
    case oddRRByte(rrBytes: Int)
    /// Bytes follow the rate or energy although the flags announce no RR intervals.
    case unexpectedTrailingBytes(count: Int)

    public var description: String {
        switch self {
        case .empty:
            return "empty value: no flags byte"
        case let .truncatedRate(bits, available):
            return "flags promise \(bits == 8 ? "an" : "a") \(bits)-bit rate but \(bytesFollow(available))"
        case let .truncatedEnergyExpended(available):
            return "flags promise energy expended (2 bytes) but \(bytesFollow(available))"
        case let .oddRRByte(rrBytes):
            return "odd trailing byte in RR list (\(byteCount(rrBytes)) of RR data)"
        case let .unexpectedTrailingBytes(count):
            return "\(byteCount(count)) after the last field the flags announce"
        }
    }
}
