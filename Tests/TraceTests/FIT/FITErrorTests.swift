import Sensors
import TestSupport
import Testing
@testable import Trace

/// Bad FIT input is refused as `path: byte OFFSET: what`, the offset counted from 0 at the start
/// of the file (a record's offset is its record header's).
@Suite struct FITErrorTests {
    /// 1_000_000_000 s after FIT's epoch.
    static let time: UInt64 = 1_000_000_000
    static let timeText = "2021-09-08T01:46:40.000000Z"

    func refusal(_ bytes: [UInt8]) -> String? {
        do {
            _ = try WorkoutRecording(fit: bytes, path: "run.fit", source: "run.fit")
            return nil
        } catch {
            return "\(error)"
        }
    }

    /// A valid file: one record of 70 bpm (its definition at byte 14, the record at 26, the file CRC at 32).
    func oneRecord() -> FITWriter {
        var writer = FITWriter()
        writer.define(localType: 0, global: 20, fields: [.uint32(253), .uint8(3)])
        writer.data(localType: 0, [.number(Self.time), .number(70)])
        return writer
    }

    func hex(_ value: UInt16) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return "0x" + String(repeating: "0", count: 4 - digits.count) + digits
    }

    @Test func theFileHeader() {
        #expect(refusal([0x0E, 0x20, 0x00]) == "run.fit: byte 0: 3 bytes where a FIT file header needs at least 12 (truncated?)")

        var notFIT = oneRecord().file()
        notFIT[8..<12] = ArraySlice("FIT.".utf8)
        #expect(refusal(notFIT) == #"run.fit: byte 8: no ".FIT" signature: not a FIT file"#)

        var oddSize = oneRecord().file()
        oddSize[0] = 13
        #expect(refusal(oddSize) == "run.fit: byte 0: header size 13 is neither 12 nor 14")

        var badHeaderCRC = oneRecord().file()
        let stored = FITWriter.crc(Array(badHeaderCRC[0..<12]))
        badHeaderCRC[1] = 0x10 // the protocol version, after the CRC was computed
        let computed = FITWriter.crc(Array(badHeaderCRC[0..<12]))
        #expect(refusal(badHeaderCRC) == "run.fit: byte 12: header CRC \(hex(stored)) does not match its bytes' \(hex(computed))")
    }

    @Test func aTruncatedFile() {
        let whole = oneRecord().file()
        let cut = Array(whole.dropLast(3))
        #expect(refusal(cut) == "run.fit: byte \(cut.count): the file ends before the 18 bytes of records and the CRC its header announces (truncated)")
    }

    @Test func aCorruptByteIsACRCMismatch() {
        var corrupt = oneRecord().file()
        let stored = FITWriter.crc(Array(corrupt.dropLast(2)))
        corrupt[31] = 71 // the heart rate
        let computed = FITWriter.crc(Array(corrupt.dropLast(2)))
        let mismatch = "run.fit: byte 32: file CRC \(hex(stored)) does not match its bytes' \(hex(computed)) (corrupt)"
        #expect(refusal(corrupt) == mismatch)

        // A corrupt record header would read as a message without a definition: the CRC is the
        // better explanation, and is what is said.
        var header = oneRecord().file()
        header[26] = 0x05
        #expect(refusal(header)?.hasPrefix("run.fit: byte 32: file CRC ") == true)
    }

    @Test func aDataMessageWithNoDefinition() {
        var writer = oneRecord()
        writer.raw([0x03, 0x01, 0x02])
        #expect(refusal(writer.file()) == "run.fit: byte 32: data message of local type 3 has no definition before it")
    }

    @Test func messagesRunningPastTheRecords() {
        var data = FITWriter()
        data.define(localType: 0, global: 20, fields: [.uint32(253), .uint8(3)])
        data.raw([0x00, 0x01, 0x02])
        #expect(refusal(data.file()) == "run.fit: byte 26: data message runs past the end of the records at byte 29 (truncated or corrupt)")

        var definition = FITWriter()
        definition.raw([0x40, 0x00, 0x00, 0x14, 0x00, 0x02, 253, 4])
        #expect(refusal(definition.file()) == "run.fit: byte 14: definition message runs past the end of the records at byte 22 (truncated or corrupt)")
    }

    @Test func anArchitectureByteThatIsNeitherByteOrder() {
        var writer = FITWriter()
        writer.raw([0x40, 0x00, 0x02, 0x14, 0x00, 0x00])
        #expect(refusal(writer.file()) == "run.fit: byte 16: architecture byte 2 is neither 0 (little endian) nor 1 (big endian)")
    }

    @Test func aRecordWithoutATime() {
        var writer = oneRecord()
        writer.define(localType: 1, global: 20, fields: [.uint8(3)])
        writer.data(localType: 1, [.number(71)])
        #expect(refusal(writer.file()) == "run.fit: byte 41: record without a time (no timestamp field 253, no compressed timestamp header)")

        var invalidTime = FITWriter()
        invalidTime.define(localType: 0, global: 20, fields: [.uint32(253), .uint8(3)])
        invalidTime.data(localType: 0, [.number(0xFFFF_FFFF), .number(70)])
        #expect(refusal(invalidTime.file()) == "run.fit: byte 26: record without a time (no timestamp field 253, no compressed timestamp header)")
    }

    @Test func aCompressedTimestampBeforeAnyFullOne() {
        var writer = FITWriter()
        writer.define(localType: 0, global: 20, fields: [.uint8(3)])
        writer.data(localType: 0, [.number(70)], compressedTimeOffset: 3)
        #expect(refusal(writer.file()) == "run.fit: byte 23: compressed timestamp header before any full timestamp")
    }

    @Test func aRecordTimeThatGoesBack() {
        var writer = oneRecord()
        writer.data(localType: 0, [.number(Self.time - 1), .number(71)])
        #expect(refusal(writer.file()) == "run.fit: byte 32: record time 2021-09-08T01:46:39.000000Z goes back before the previous record's \(Self.timeText)")
    }

    @Test func timerEventsWithoutATimeOrGoingBack() {
        var untimed = oneRecord()
        untimed.define(localType: 1, global: 21, fields: [.enumeration(0), .enumeration(1)])
        untimed.data(localType: 1, [.number(0), .number(1)])
        #expect(refusal(untimed.file()) == "run.fit: byte 44: timer event without a time (no timestamp field 253, no compressed timestamp header)")

        var back = oneRecord()
        back.define(localType: 1, global: 21, fields: [.uint32(253), .enumeration(0), .enumeration(1)])
        back.data(localType: 1, [.number(Self.time + 5), .number(0), .number(1)])
        back.data(localType: 1, [.number(Self.time + 4), .number(0), .number(0)])
        #expect(refusal(back.file()) == "run.fit: byte 54: timer event time 2021-09-08T01:46:44.000000Z goes back before the previous timer event's 2021-09-08T01:46:45.000000Z")
    }

    @Test func anHRVMessageBeforeAnyTime() {
        var writer = FITWriter()
        writer.define(localType: 0, global: 78, fields: [.uint16(0, count: 2)])
        writer.data(localType: 0, [.numbers([800, 0xFFFF])])
        #expect(refusal(writer.file()) == "run.fit: byte 23: hrv message before any time in the file: its beats cannot be placed")
    }

    @Test func aFileWithoutRecords() {
        var writer = FITWriter()
        writer.define(localType: 0, global: 0, fields: [.enumeration(0)])
        writer.data(localType: 0, [.number(4)])
        let bytes = writer.file()
        #expect(refusal(bytes) == "run.fit: byte \(bytes.count): no record message: the file holds no samples to import")
    }
}
