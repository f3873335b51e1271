/// One field of a data message, read in place: one value or an array of them, in the byte order
/// of its message's definition.
struct FITField {
    var number: UInt8
    var baseType: FITBaseType
    fileprivate var bytes: [UInt8]
    fileprivate var start: Int
    fileprivate var size: Int
    fileprivate var isBigEndian: Bool

    init(_ definition: FITMessageDefinition.FieldDefinition, baseType: FITBaseType, in bytes: [UInt8], messageStart: Int, isBigEndian: Bool) {
        number = definition.number
        self.baseType = baseType
        self.bytes = bytes
        start = messageStart + definition.offset
        size = definition.size
        self.isBigEndian = isBigEndian
    }

    /// How many values the field holds (more than one: an array, such as an hrv message's intervals).
    var count: Int { size / baseType.size }

    /// The value at `index`; nil when it holds the invalid pattern, or is not a whole number.
    func integer(at index: Int = 0) -> Int64? {
        guard baseType.isInteger else { return nil }
        let width = baseType.size
        let offset = start + index * width
        let bits = isBigEndian ? FITBytes.bigEndian(bytes, at: offset, size: width) : FITBytes.littleEndian(bytes, at: offset, size: width)
        guard bits != baseType.invalidBits else { return nil }
        guard baseType.isSigned else { return Int64(exactly: bits) }
        let unused = UInt64(64 - width * 8) // sign-extend from the value's width
        return Int64(bitPattern: bits << unused) >> Int64(unused)
    }

    /// A string field: UTF-8 up to its first NUL; nil when empty (a string's invalid value).
    var string: String? {
        guard baseType == .string else { return nil }
        let text = bytes[start..<start + size].prefix { $0 != 0 }
        return text.isEmpty ? nil : String(decoding: text, as: UTF8.self)
    }
}
