/// The byte before every message. A normal header says definition or data message, which of 16
/// local types, and (for a definition) whether developer fields follow; a compressed timestamp
/// header (bit 7) is a data message of local type 0–3 whose time is a 5-bit offset from the last
/// full timestamp, so a 1 Hz record costs no 4-byte time field.
enum FITRecordHeader {
    case definition(localType: Int, hasDeveloperFields: Bool)
    case data(localType: Int)
    case compressedTimestamp(localType: Int, timeOffset: UInt32)

    init(_ byte: UInt8) {
        if byte & 0x80 != 0 {
            self = .compressedTimestamp(localType: Int(byte >> 5 & 0x03), timeOffset: UInt32(byte & 0x1F))
        } else if byte & 0x40 != 0 {
            self = .definition(localType: Int(byte & 0x0F), hasDeveloperFields: byte & 0x20 != 0)
        } else {
            self = .data(localType: Int(byte & 0x0F))
        }
    }

    /// Local types run 0–15; a definition replaces the one before it.
    static let localTypes = 16
}
