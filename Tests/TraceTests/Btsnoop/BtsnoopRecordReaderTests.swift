import Sensors
import Testing
@testable import Trace

@Suite struct BtsnoopRecordReaderTests {
    /// `btsnoop\0`, version 1, datalink 2001 (Linux monitor).
    static let fileHeader = "6274736e6f6f7000 00000001 000007d1"

    @Test func readsAMonitorRecord() throws {
        // lengths 4 and 4, flags = controller 1 << 16 | opcode 5 (ACL from the controller), no drops,
        // then BlueZ's own 2000-01-01 constant + 1 µs, then the packet
        let bytes = try Hex.decodeLenient(Self.fileHeader + " 00000004 00000004 00010005 00000000 00e03ab44a676001 40200000")
        var reader = try BtsnoopRecordReader(bytes)
        let record = try #require(try reader.next())
        #expect(record.offset == 16)
        #expect(UTCTimestampText.format(record.time) == "2000-01-01T00:00:00.000001Z")
        #expect(record.controller == 1)
        #expect(record.kind == .aclReceived)
        #expect(Array(record.packet) == [0x40, 0x20, 0x00, 0x00])
        #expect(record.packet.startIndex == 40, "packet indices are file offsets, for error messages")
        #expect(try reader.next() == nil)
    }

    /// Microseconds since 0000-01-01 as btsnoop counts them: the Unix epoch is 0x00DCDDB30F2F8000
    /// (BlueZ and Wireshark alike), BlueZ writes 2000-01-01 as 0x00E03AB44A676000.
    @Test(arguments: [
        (UInt64(0x00DC_DDB3_0F2F_8000), "1970-01-01T00:00:00.000000Z"),
        (UInt64(0x00E0_3AB4_4A67_6000), "2000-01-01T00:00:00.000000Z"),
        (UInt64(63_882_801_000_123_456), "2024-05-01T06:30:00.123456Z"),
    ])
    func convertsTheBtsnoopEpoch(raw: UInt64, expected: String) throws {
        #expect(UTCTimestampText.format(try #require(BtsnoopTime.timestamp(raw))) == expected)
    }

    @Test func timesBeforeTheUnixEpochAreNegative() throws {
        #expect(try #require(BtsnoopTime.timestamp(BtsnoopTime.unixEpoch - 1)).microsecondsSinceUnixEpoch == -1)
    }

    @Test(arguments: [
        ("", 0, "truncated file header (0 of 16 bytes)"),
        ("6274736e6f6f70", 7, "truncated file header (7 of 16 bytes)"),
        ("6274736e6f6f7020 00000001 000007d1", 0, "not a btsnoop file (it does not start with \"btsnoop\\0\")"),
        ("6274736e6f6f7000 00000002 000007d1", 8, "unsupported btsnoop version 2 (only 1 exists)"),
        ("6274736e6f6f7000 00000001 000003ea", 12, "unsupported datalink type 1002: only Linux monitor captures (2001, btmon -w) are read"),
        (fileHeader + " 00000004 00000004 00000005 00000000 00e03ab4", 16, "truncated record header (20 of 24 bytes)"),
        (fileHeader + " 00000004 00000004 00000005 00000000 00e03ab44a676000 4020", 16, "truncated record: its packet needs 4 bytes, the file has 2 left"),
        (fileHeader + " 00000008 00000004 00000005 00000000 00e03ab44a676000 40200000", 16, "record keeps 4 of its packet's 8 bytes"),
        (fileHeader + " 00000000 00000000 00000005 00000000 ffffffffffffffff", 32, "timestamp 18446744073709551615 is outside the years 1970–9999 a trace can hold"),
        // One microsecond outside the years a trace can hold, either side (found by the btsnoop fuzz target).
        (fileHeader + " 00000000 00000000 00000005 00000000 00dcddb30f2f7fff", 32, "timestamp 62168255999999999 is outside the years 1970–9999 a trace can hold"),
        (fileHeader + " 00000000 00000000 00000005 00000000 046121bfdba2e000", 32, "timestamp 315570556800000000 is outside the years 1970–9999 a trace can hold"),
    ])
    func rejectsBadCaptures(hex: String, offset: Int, what: String) throws {
        let bytes = try Hex.decodeLenient(hex)
        #expect(throws: BtsnoopError(offset: offset, what)) {
            var reader = try BtsnoopRecordReader(bytes)
            while try reader.next() != nil {}
        }
    }
}
