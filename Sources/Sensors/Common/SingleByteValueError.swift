/// Why a one-byte characteristic (0x2A38, 0x2A19) could not be read.
public enum SingleByteValueError: Error, Sendable, Hashable, CustomStringConvertible {
    case wrongLength(Int)
    case outOfRange(UInt8, maximum: UInt8)

    public var description: String {
        switch self {
        case let .wrongLength(count):
            return "expected exactly 1 byte, got \(count)"
        case let .outOfRange(value, maximum):
            return "value \(value) is above the maximum \(maximum)"
        }
    }
}

func singleByte<Bytes: Collection>(of value: Bytes) throws(SingleByteValueError) -> UInt8 where Bytes.Element == UInt8 {
    guard value.count == 1, let byte = value.first else { throw .wrongLength(value.count) }
    return byte
}
