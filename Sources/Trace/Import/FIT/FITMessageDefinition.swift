/// A definition message: the layout of every data message of its local type until the type is
/// defined again. The architecture byte sets the byte order of those messages' values; developer
/// fields (declared by the file itself, with no profile hrbridge knows) are kept only as the bytes
/// to skip.
struct FITMessageDefinition {
    var globalNumber: UInt16
    var isBigEndian: Bool
    var fields: [FieldDefinition]
    /// How many declared fields cannot be read as their base type says (see `FieldDefinition.baseType`).
    var unreadableFieldCount: Int
    var developerFieldCount: Int
    /// Bytes of one data message of this type: its fields, then its developer fields.
    var dataSize: Int

    struct FieldDefinition {
        var number: UInt8
        /// From the first byte of the message's fields.
        var offset: Int
        var size: Int
        /// nil when the base type is unknown or the size is not a whole number of its values: the
        /// field is skipped, since its bytes cannot be read as values.
        var baseType: FITBaseType?
    }

    /// Reads the definition whose content starts at `start` (after its record header); `end` is
    /// where the file's records end. Returns the definition and the offset after it.
    static func read(_ bytes: [UInt8], at start: Int, end: Int, hasDeveloperFields: Bool)
        throws(FITFormatError) -> (FITMessageDefinition, next: Int)
    {
        func need(_ count: Int, at offset: Int) throws(FITFormatError) {
            guard offset + count <= end else {
                throw FITFormatError(offset: start - 1, reason: "definition message runs past the end of the records at byte \(end) (truncated or corrupt)")
            }
        }
        try need(5, at: start) // reserved, architecture, global number (2), field count
        let architecture = bytes[start + 1]
        guard architecture <= 1 else {
            throw FITFormatError(offset: start + 1, reason: "architecture byte \(architecture) is neither 0 (little endian) nor 1 (big endian)")
        }
        let isBigEndian = architecture == 1
        let globalNumber = UInt16(isBigEndian ? FITBytes.bigEndian(bytes, at: start + 2, size: 2) : FITBytes.littleEndian(bytes, at: start + 2, size: 2))
        let fieldCount = Int(bytes[start + 4])
        var offset = start + 5
        try need(3 * fieldCount, at: offset)
        var fields: [FieldDefinition] = []
        fields.reserveCapacity(fieldCount)
        var dataSize = 0
        var unreadable = 0
        for _ in 0..<fieldCount {
            let size = Int(bytes[offset + 1])
            let baseType = FITBaseType(byte: bytes[offset + 2]).flatMap { size >= $0.size && size % $0.size == 0 ? $0 : nil }
            if baseType == nil { unreadable += 1 }
            fields.append(FieldDefinition(number: bytes[offset], offset: dataSize, size: size, baseType: baseType))
            dataSize += size
            offset += 3
        }
        var developerFieldCount = 0
        if hasDeveloperFields {
            try need(1, at: offset)
            developerFieldCount = Int(bytes[offset])
            offset += 1
            try need(3 * developerFieldCount, at: offset)
            for _ in 0..<developerFieldCount {
                dataSize += Int(bytes[offset + 1]) // field number, size, developer data index
                offset += 3
            }
        }
        let definition = FITMessageDefinition(globalNumber: globalNumber, isBigEndian: isBigEndian, fields: fields,
                                              unreadableFieldCount: unreadable, developerFieldCount: developerFieldCount, dataSize: dataSize)
        return (definition, offset)
    }
}
