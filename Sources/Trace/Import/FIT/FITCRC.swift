/// The CRC-16 the FIT SDK defines for the file header and for the whole file (CRC-16/ARC:
/// polynomial 0x8005 reflected, initial value 0), computed a nibble at a time with the SDK's
/// 16-entry table, low nibble first.
enum FITCRC {
    static func of(_ bytes: ArraySlice<UInt8>) -> UInt16 {
        var crc: UInt16 = 0
        for byte in bytes {
            crc = step(step(crc, nibble: byte & 0x0F), nibble: byte >> 4)
        }
        return crc
    }

    private static func step(_ crc: UInt16, nibble: UInt8) -> UInt16 {
        ((crc >> 4) & 0x0FFF) ^ table[Int(crc & 0x0F)] ^ table[Int(nibble)]
    }

    private static let table: [UInt16] = [
        0x0000, 0xCC01, 0xD801, 0x1400, 0xF001, 0x3C00, 0x2800, 0xE401,
        0xA001, 0x6C00, 0x7800, 0xB401, 0x5000, 0x9C01, 0x8801, 0x4400,
    ]
}
