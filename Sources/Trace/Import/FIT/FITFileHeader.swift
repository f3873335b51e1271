/// The header that opens a FIT file (and each file of a chain): its own size, 12 or 14 bytes; how
/// many bytes of records follow it; the ".FIT" signature; and, in the 14-byte form, a CRC of the
/// first 12 bytes (0 when the writer did not compute it).
struct FITFileHeader {
    var size: Int
    var dataSize: Int

    static let signature: [UInt8] = Array(".FIT".utf8)
    static let signatureRange = 8..<12

    init(_ bytes: [UInt8], at start: Int) throws(FITFormatError) {
        let available = bytes.count - start
        guard available >= 12 else {
            throw FITFormatError(offset: start, reason: "\(available) bytes where a FIT file header needs at least 12 (truncated?)")
        }
        guard bytes[start + Self.signatureRange.lowerBound..<start + Self.signatureRange.upperBound].elementsEqual(Self.signature) else {
            throw FITFormatError(offset: start + Self.signatureRange.lowerBound, reason: "no \".FIT\" signature: not a FIT file")
        }
        size = Int(bytes[start])
        guard size == 12 || size == 14 else {
            throw FITFormatError(offset: start, reason: "header size \(size) is neither 12 nor 14")
        }
        guard available >= size else {
            throw FITFormatError(offset: start, reason: "the file ends inside its \(size)-byte header (truncated)")
        }
        dataSize = Int(FITBytes.littleEndian(bytes, at: start + 4, size: 4))
        if size == 14 {
            let stored = UInt16(FITBytes.littleEndian(bytes, at: start + 12, size: 2))
            let computed = FITCRC.of(bytes[start..<start + 12])
            guard stored == 0 || stored == computed else {
                throw FITFormatError(offset: start + 12, reason: "header CRC \(FITBytes.hex(stored)) does not match its bytes' \(FITBytes.hex(computed))")
            }
        }
    }
}
