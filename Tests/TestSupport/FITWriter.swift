/// Writes FIT files for tests and benchmarks: definitions and data messages as the protocol lays
/// them out, in either byte order, with compressed timestamp headers and developer fields when
/// asked, then the header and the CRCs. It knows no profile: callers say which message and field
/// numbers, base types and bit patterns (invalid values included) they want. Written apart from
/// hrbridge's decoder (its CRC bit by bit, not by table) so that each checks the other.
public struct FITWriter {
    public enum ByteOrder: Sendable { case littleEndian, bigEndian }

    /// A field of a definition: its number, its size in bytes and its base-type byte (e.g. 0x84
    /// for uint16).
    public struct Field: Sendable {
        public var number: UInt8
        public var size: Int
        public var baseType: UInt8

        public init(_ number: UInt8, size: Int, baseType: UInt8) {
            self.number = number
            self.size = size
            self.baseType = baseType
        }

        public static func uint8(_ number: UInt8) -> Field { Field(number, size: 1, baseType: 0x02) }
        public static func enumeration(_ number: UInt8) -> Field { Field(number, size: 1, baseType: 0x00) }
        public static func uint16(_ number: UInt8, count: Int = 1) -> Field { Field(number, size: 2 * count, baseType: 0x84) }
        public static func uint32(_ number: UInt8) -> Field { Field(number, size: 4, baseType: 0x86) }
        public static func string(_ number: UInt8, size: Int) -> Field { Field(number, size: size, baseType: 0x07) }
    }

    /// One field's content: its values' bit patterns (one, or an array's), or a string padded
    /// with NULs to the field's size.
    public enum Value: Sendable {
        case number(UInt64)
        case numbers([UInt64])
        case text(String)
    }

    private struct Layout {
        var fields: [Field]
        var developerFieldSizes: [Int]
        var byteOrder: ByteOrder
    }

    private var layouts: [Int: Layout] = [:]
    /// The records written so far: what the header's data size counts.
    public private(set) var records: [UInt8] = []

    public init() {}

    public mutating func define(localType: Int, global: UInt16, fields: [Field], developerFields: [(number: UInt8, size: Int)] = [],
                                byteOrder: ByteOrder = .littleEndian)
    {
        records.append(0x40 | (developerFields.isEmpty ? 0 : 0x20) | UInt8(localType))
        records.append(0) // reserved
        records.append(byteOrder == .bigEndian ? 1 : 0)
        append(UInt64(global), size: 2, byteOrder)
        records.append(UInt8(fields.count))
        for field in fields { records += [field.number, UInt8(field.size), field.baseType] }
        if !developerFields.isEmpty {
            records.append(UInt8(developerFields.count))
            for field in developerFields { records += [field.number, UInt8(field.size), 0] } // developer data index 0
        }
        layouts[localType] = Layout(fields: fields, developerFieldSizes: developerFields.map(\.size), byteOrder: byteOrder)
    }

    /// A data message of `localType` with one value per field of its definition, then
    /// `developerBytes` for its developer fields. `compressedTimeOffset` writes a compressed
    /// timestamp header (local types 0–3) with those 5 bits instead of a normal one.
    public mutating func data(localType: Int, _ values: [Value], developerBytes: [UInt8] = [], compressedTimeOffset: UInt32? = nil) {
        let layout = layouts[localType]!
        precondition(values.count == layout.fields.count && developerBytes.count == layout.developerFieldSizes.reduce(0, +))
        if let compressedTimeOffset {
            precondition(localType < 4)
            records.append(0x80 | UInt8(localType) << 5 | UInt8(compressedTimeOffset & 0x1F))
        } else {
            records.append(UInt8(localType))
        }
        for (field, value) in zip(layout.fields, values) {
            switch value {
            case let .number(bits): append(bits, size: field.size, layout.byteOrder)
            case let .numbers(array):
                let width = field.size / array.count
                for bits in array { append(bits, size: width, layout.byteOrder) }
            case let .text(text):
                let utf8 = Array(text.utf8.prefix(field.size))
                records += utf8 + [UInt8](repeating: 0, count: field.size - utf8.count)
            }
        }
        records += developerBytes
    }

    /// Bytes as they are, for files no honest writer makes.
    public mutating func raw(_ bytes: [UInt8]) { records += bytes }

    /// The whole file: header (14 bytes with its CRC, or the older 12), records, file CRC.
    public func file(headerSize: Int = 14) -> [UInt8] {
        var bytes: [UInt8] = [UInt8(headerSize), 0x20] // protocol 2.0
        bytes += Self.littleEndian(2160, size: 2) // profile 21.60
        bytes += Self.littleEndian(UInt64(records.count), size: 4)
        bytes += Array(".FIT".utf8)
        if headerSize == 14 { bytes += Self.littleEndian(UInt64(Self.crc(bytes)), size: 2) }
        bytes += records
        return bytes + Self.littleEndian(UInt64(Self.crc(bytes)), size: 2)
    }

    /// CRC-16/ARC, bit by bit: reflected polynomial 0xA001, initial value 0.
    public static func crc(_ bytes: [UInt8]) -> UInt16 {
        var crc: UInt16 = 0
        for byte in bytes {
            crc ^= UInt16(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? crc >> 1 ^ 0xA001 : crc >> 1 }
        }
        return crc
    }

    private mutating func append(_ bits: UInt64, size: Int, _ byteOrder: ByteOrder) {
        let little = Self.littleEndian(bits, size: size)
        records += byteOrder == .littleEndian ? little : little.reversed()
    }

    private static func littleEndian(_ bits: UInt64, size: Int) -> [UInt8] {
        (0..<size).map { UInt8(truncatingIfNeeded: bits >> (8 * UInt64($0))) }
    }
}
