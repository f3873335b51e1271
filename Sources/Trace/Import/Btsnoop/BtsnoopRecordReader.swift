import Sensors

/// Reads the records of a btsnoop file as `btmon -w` writes it: a 16-byte file header (the
/// pattern `btsnoop\0`, version 1, datalink type), then records of a 24-byte header (original
/// length, included length, flags, cumulative drops, timestamp; all big-endian) and the packet.
/// Only the Linux monitor datalink (2001) is read: there the flags hold the controller index
/// (high 16 bits) and the packet's kind (low 16 bits), so one file holds every controller's
/// commands, events and ACL data in both directions.
struct BtsnoopRecordReader {
    static let identification: [UInt8] = Array("btsnoop".utf8) + [0]
    static let fileHeaderSize = 16
    static let recordHeaderSize = 24
    static let supportedVersion: UInt32 = 1
    static let monitorDatalink: UInt32 = 2001

    private let bytes: [UInt8]
    private var offset: Int

    init(_ bytes: [UInt8]) throws(BtsnoopError) {
        guard bytes.count >= Self.fileHeaderSize else {
            throw BtsnoopError(offset: bytes.count, "truncated file header (\(bytes.count) of \(Self.fileHeaderSize) bytes)")
        }
        guard Array(bytes[0..<8]) == Self.identification else {
            throw BtsnoopError(offset: 0, "not a btsnoop file (it does not start with \"btsnoop\\0\")")
        }
        let version = Self.bigEndian32(bytes, at: 8)
        guard version == Self.supportedVersion else {
            throw BtsnoopError(offset: 8, "unsupported btsnoop version \(version) (only \(Self.supportedVersion) exists)")
        }
        let datalink = Self.bigEndian32(bytes, at: 12)
        guard datalink == Self.monitorDatalink else {
            throw BtsnoopError(offset: 12, "unsupported datalink type \(datalink): only Linux monitor captures (\(Self.monitorDatalink), btmon -w) are read")
        }
        self.bytes = bytes
        self.offset = Self.fileHeaderSize
    }

    /// The next record, or nil at the end of the file.
    mutating func next() throws(BtsnoopError) -> BtsnoopRecord? {
        guard offset < bytes.count else { return nil }
        let start = offset
        guard bytes.count - start >= Self.recordHeaderSize else {
            throw BtsnoopError(offset: start, "truncated record header (\(bytes.count - start) of \(Self.recordHeaderSize) bytes)")
        }
        let originalLength = Int(Self.bigEndian32(bytes, at: start))
        let includedLength = Int(Self.bigEndian32(bytes, at: start + 4))
        let flags = Self.bigEndian32(bytes, at: start + 8)
        let packetStart = start + Self.recordHeaderSize
        guard includedLength == originalLength else {
            // A shortened packet would have to be guessed at, whatever it held.
            throw BtsnoopError(offset: start, "record keeps \(includedLength) of its packet's \(originalLength) bytes")
        }
        guard bytes.count - packetStart >= includedLength else {
            throw BtsnoopError(offset: start, "truncated record: its packet needs \(includedLength) bytes, the file has \(bytes.count - packetStart) left")
        }
        let rawTime = UInt64(Self.bigEndian32(bytes, at: start + 16)) << 32 | UInt64(Self.bigEndian32(bytes, at: start + 20))
        // Refused here, at its offset: a trace cannot hold such a time (the import wrote traces the
        // reader refused, with a start before 1970 or an offset reaching past 9999).
        guard let time = BtsnoopTime.timestamp(rawTime), UTCTimestampText.writableRange.contains(time) else {
            throw BtsnoopError(offset: start + 16, "timestamp \(rawTime) is outside the years \(UTCTimestampText.writableYears) a trace can hold")
        }
        offset = packetStart + includedLength
        return BtsnoopRecord(
            offset: start, time: time, controller: UInt16(flags >> 16), kind: MonitorPacketKind(rawValue: UInt16(flags & 0xFFFF)),
            packet: bytes[packetStart..<offset]
        )
    }

    private static func bigEndian32(_ bytes: [UInt8], at index: Int) -> UInt32 {
        UInt32(bytes[index]) << 24 | UInt32(bytes[index + 1]) << 16 | UInt32(bytes[index + 2]) << 8 | UInt32(bytes[index + 3])
    }
}

/// One captured packet and where it came from.
struct BtsnoopRecord {
    /// Where the record's header starts in the file.
    var offset: Int
    var time: Timestamp
    /// The HCI controller's index (hci0 = 0).
    var controller: UInt16
    var kind: MonitorPacketKind
    /// Indices are the file's (`packet.startIndex` is the packet's file offset).
    var packet: ArraySlice<UInt8>
}

/// The kind of a monitor record's packet (BlueZ's BTSNOOP_OPCODE_*), named for the ones an import
/// reads; the others (commands, SCO, notes, the management channel) pass by unread.
struct MonitorPacketKind: RawRepresentable, Hashable {
    var rawValue: UInt16

    static let controllerRemoved = MonitorPacketKind(rawValue: 1)
    static let event = MonitorPacketKind(rawValue: 3)
    /// ACL data from the host to the controller: what the host sent to a device.
    static let aclSent = MonitorPacketKind(rawValue: 4)
    /// ACL data from the controller to the host: what a device sent.
    static let aclReceived = MonitorPacketKind(rawValue: 5)
}
