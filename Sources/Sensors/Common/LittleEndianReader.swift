/// A cursor over little-endian bytes that answers nil instead of reading past the end.
@usableFromInline
struct LittleEndianReader<Bytes: Collection> where Bytes.Element == UInt8, Bytes.Index == Int {
    @usableFromInline let bytes: Bytes
    @usableFromInline var index: Int

    @inlinable
    init(_ bytes: Bytes) {
        self.bytes = bytes
        self.index = bytes.startIndex
    }

    @inlinable
    var remaining: Int { bytes.endIndex - index }

    @inlinable
    mutating func readUInt8() -> UInt8? {
        guard remaining >= 1 else { return nil }
        defer { index += 1 }
        return bytes[index]
    }

    @inlinable
    mutating func readUInt16() -> UInt16? {
        guard remaining >= 2 else { return nil }
        defer { index += 2 }
        return UInt16(bytes[index]) | UInt16(bytes[index + 1]) << 8
    }

    @inlinable
    mutating func readUInt32() -> UInt32? {
        guard remaining >= 4 else { return nil }
        defer { index += 4 }
        return UInt32(bytes[index]) | UInt32(bytes[index + 1]) << 8
            | UInt32(bytes[index + 2]) << 16 | UInt32(bytes[index + 3]) << 24
    }
}
