/// A field's base type, the low 5 bits of its base-type byte (bit 7 only says whether it has a byte
/// order): how wide one value is, and the bit pattern that means "no value". An invalid value is
/// absent from the recording, never read as a number.
enum FITBaseType: UInt8 {
    case enumeration = 0, sint8, uint8, sint16, uint16, sint32, uint32, string, float32, float64
    case uint8z, uint16z, uint32z, byte, sint64, uint64, uint64z

    /// nil for a base type this version of FIT does not define.
    init?(byte: UInt8) { self.init(rawValue: byte & 0x1F) }

    /// Bytes per value; a field holds one value or an array of them.
    var size: Int {
        switch self {
        case .enumeration, .sint8, .uint8, .string, .uint8z, .byte: 1
        case .sint16, .uint16, .uint16z: 2
        case .sint32, .uint32, .float32, .uint32z: 4
        case .float64, .sint64, .uint64, .uint64z: 8
        }
    }

    /// Whether a value is a whole number hrbridge can read (strings and floats are not).
    var isInteger: Bool { self != .string && self != .float32 && self != .float64 }

    var isSigned: Bool { self == .sint8 || self == .sint16 || self == .sint32 || self == .sint64 }

    /// The "no value" pattern: all ones for unsigned types, the largest positive value for signed
    /// ones, zero for the `z` types (whose zero is never a value).
    var invalidBits: UInt64 {
        switch self {
        case .uint8z, .uint16z, .uint32z, .uint64z, .string: 0
        case .sint8, .sint16, .sint32, .sint64: (1 << UInt64(size * 8 - 1)) - 1
        default: size == 8 ? .max : (1 << UInt64(size * 8)) - 1
        }
    }
}
