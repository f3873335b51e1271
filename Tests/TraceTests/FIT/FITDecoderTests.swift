import Sensors
import TestSupport
import Testing
@testable import Trace

/// The FIT protocol layer: header and CRCs, record headers, definitions in both byte orders,
/// base types and their invalid values, compressed timestamps, developer fields, chained files.
@Suite struct FITDecoderTests {
    /// Every data message of a file as (global number, time, each readable field's values).
    struct Decoded: Equatable {
        var global: UInt16
        var time: UInt32?
        var fields: [UInt8: [Int64?]]
    }

    func decode(_ bytes: [UInt8]) throws -> (messages: [Decoded], skipped: [FITSkip: Int]) {
        var messages: [Decoded] = []
        let skipped = try FITDecoder(bytes: bytes).decode { message in
            var fields: [UInt8: [Int64?]] = [:]
            for field in message.fields { fields[field.number] = (0..<field.count).map { field.integer(at: $0) } }
            messages.append(Decoded(global: message.globalNumber, time: message.time, fields: fields))
        }
        return (messages, skipped)
    }

    @Test func theCRCIsTheOneTheSDKDefines() {
        // CRC-16/ARC's check value, and the test writer's bit-by-bit CRC agreeing with the table.
        #expect(FITCRC.of(Array("123456789".utf8)[...]) == 0xBB3D)
        var random = SplitMix64(seed: 7)
        let bytes = (0..<1000).map { _ in UInt8(random.below(256)) }
        #expect(FITCRC.of(bytes[...]) == FITWriter.crc(bytes))
    }

    /// One value of a base type as written little endian, and what it reads as.
    struct BaseTypeCase: Sendable {
        var baseType: UInt8
        var bytes: [UInt8]
        var value: Int64?
        init(_ baseType: UInt8, _ bytes: [UInt8], _ value: Int64?) {
            self.baseType = baseType
            self.bytes = bytes
            self.value = value
        }
    }

    static let baseTypeCases: [BaseTypeCase] = [
        .init(0x00, [0xFF], nil), .init(0x00, [0x03], 3),                                   // enum
        .init(0x01, [0x7F], nil), .init(0x01, [0x80], -128), .init(0x01, [0xFF], -1),        // sint8
        .init(0x02, [0xFF], nil), .init(0x02, [0xFE], 254), .init(0x02, [0x00], 0),          // uint8: 0 is a value
        .init(0x83, [0xFF, 0x7F], nil), .init(0x83, [0x00, 0x80], -32768),                   // sint16
        .init(0x84, [0xFF, 0xFF], nil), .init(0x84, [0x34, 0x12], 0x1234),                   // uint16
        .init(0x85, [0xFF, 0xFF, 0xFF, 0x7F], nil), .init(0x85, [0xFE, 0xFF, 0xFF, 0xFF], -2), // sint32
        .init(0x86, [0xFF, 0xFF, 0xFF, 0xFF], nil), .init(0x86, [0x78, 0x56, 0x34, 0x12], 0x1234_5678), // uint32
        .init(0x0A, [0x00], nil), .init(0x0A, [0xFF], 255),                                  // uint8z: 0 is the invalid one
        .init(0x8B, [0x00, 0x00], nil), .init(0x8C, [0x00, 0x00, 0x00, 0x00], nil),          // uint16z, uint32z
        .init(0x0D, [0xFF], nil), .init(0x0D, [0x7F], 127),                                  // byte
        .init(0x8E, [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x7F], nil),                  // sint64
        .init(0x8F, [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF], nil),                  // uint64
        .init(0x90, [0, 0, 0, 0, 0, 0, 0, 0], nil), .init(0x90, [1, 0, 0, 0, 0, 0, 0, 0], 1), // uint64z
        .init(0x88, [0x00, 0x00, 0x80, 0x3F], nil),                                          // float32 1.0: not read as a number
    ]

    @Test(arguments: baseTypeCases)
    func invalidValuesAreAbsentNeverZero(_ example: BaseTypeCase) throws {
        for byteOrder in [FITWriter.ByteOrder.littleEndian, .bigEndian] {
            var writer = FITWriter()
            writer.define(localType: 0, global: 20, fields: [FITWriter.Field(9, size: example.bytes.count, baseType: example.baseType)], byteOrder: byteOrder)
            writer.raw([0x00] + (byteOrder == .littleEndian ? example.bytes : example.bytes.reversed()))
            #expect(try decode(writer.file()).messages[0].fields[9] == [example.value])
        }
    }

    /// A compressed header's 5 bits are the low bits of a time less than 32 s after the last one.
    @Test(arguments: [
        (UInt32(1_000_000_016), UInt32(0x10), UInt32(1_000_000_016)), // same second
        (1_000_000_016, 0x1F, 1_000_000_031),                          // later in the same 32 s window
        (1_000_000_016, 0x0F, 1_000_000_047),                          // below the last's bits: the next window (31 s on)
        (1_000_000_030, 0x02, 1_000_000_034),                          // rolls over: 4 s on
    ])
    func compressedTimestampsCountFromTheLastFullOne(last: UInt32, offset: UInt32, expected: UInt32) throws {
        #expect(last & 0x1F == 0x10 || last & 0x1F == 0x1E)
        var writer = FITWriter()
        writer.define(localType: 0, global: 20, fields: [.uint32(253), .uint8(3)])
        writer.data(localType: 0, [.number(UInt64(last)), .number(60)])
        writer.define(localType: 1, global: 20, fields: [.uint8(3)])
        writer.data(localType: 1, [.number(61)], compressedTimeOffset: offset)
        writer.data(localType: 1, [.number(62)], compressedTimeOffset: (expected + 1) & 0x1F) // counts from the compressed one
        let times = try decode(writer.file()).messages.map(\.time)
        #expect(times == [last, expected, expected + 1])
    }

    @Test func bigEndianDefinitionsAndDeveloperFieldsAreReadAroundAndSkipped() throws {
        var writer = FITWriter()
        writer.define(localType: 2, global: 20, fields: [.uint32(253), .uint16(6), .uint8(3)], developerFields: [(0, 3), (1, 2)], byteOrder: .bigEndian)
        writer.data(localType: 2, [.number(1_000_000_000), .number(0x0BB8), .number(150)], developerBytes: [1, 2, 3, 4, 5])
        writer.define(localType: 3, global: 78, fields: [.uint16(0, count: 4)])
        writer.data(localType: 3, [.numbers([800, 810, 0xFFFF, 0xFFFF])])
        let (messages, skipped) = try decode(writer.file())
        #expect(messages == [
            Decoded(global: 20, time: 1_000_000_000, fields: [253: [1_000_000_000], 6: [3000], 3: [150]]),
            Decoded(global: 78, time: nil, fields: [0: [800, 810, nil, nil]]),
        ])
        #expect(skipped[.developerFields] == 2)
    }

    /// A field of a base type FIT does not define, or a size that is not whole values of its
    /// type, cannot be read: it is skipped and counted, its neighbours read as usual.
    @Test func unreadableFieldsAreSkippedAndCounted() throws {
        var writer = FITWriter()
        writer.define(localType: 0, global: 20, fields: [
            .uint8(3), FITWriter.Field(7, size: 2, baseType: 0x1F), FITWriter.Field(8, size: 3, baseType: 0x84), .uint8(4),
        ])
        writer.data(localType: 0, [.number(70), .number(0xABCD), .numbers([1, 2, 3]), .number(80)])
        let (messages, skipped) = try decode(writer.file())
        #expect(messages.map(\.fields) == [[3: [70], 4: [80]]])
        #expect(skipped[.unreadableFields] == 2)
    }

    /// A definition replaces the earlier one of its local type.
    @Test func aLocalTypeCanBeDefinedAgain() throws {
        var writer = FITWriter()
        writer.define(localType: 0, global: 20, fields: [.uint8(3)])
        writer.data(localType: 0, [.number(70)])
        writer.define(localType: 0, global: 21, fields: [.enumeration(0), .enumeration(1)])
        writer.data(localType: 0, [.number(0), .number(4)])
        #expect(try decode(writer.file()).messages.map(\.global) == [20, 21])
    }

    /// FIT files can be chained (header, records, CRC, again); definitions do not carry over.
    @Test func chainedFilesReadAsOneWithTheirOwnDefinitions() throws {
        var first = FITWriter(), second = FITWriter()
        first.define(localType: 0, global: 20, fields: [.uint32(253), .uint8(3)])
        first.data(localType: 0, [.number(1_000_000_000), .number(70)])
        second.define(localType: 0, global: 20, fields: [.uint32(253), .uint8(3)])
        second.data(localType: 0, [.number(1_000_000_001), .number(71)])
        #expect(try decode(first.file(headerSize: 12) + second.file()).messages.map(\.fields[3]) == [[70], [71]])

        var orphan = FITWriter()
        orphan.raw([0x00, 72])
        let chain = first.file() + orphan.file()
        #expect(throws: FITFormatError(offset: first.file().count + 14, reason: "data message of local type 0 has no definition before it")) {
            try decode(chain)
        }
    }

    /// A 14-byte header's CRC may be 0: not computed by the writer, not checked.
    @Test func aHeaderCRCOfZeroIsNotChecked() throws {
        var writer = FITWriter()
        writer.define(localType: 0, global: 20, fields: [.uint8(3)])
        writer.data(localType: 0, [.number(70)])
        var bytes = writer.file()
        bytes[12] = 0
        bytes[13] = 0
        let crc = FITWriter.crc(Array(bytes.dropLast(2)))
        bytes[bytes.count - 2] = UInt8(crc & 0xFF)
        bytes[bytes.count - 1] = UInt8(crc >> 8)
        #expect(try decode(bytes).messages.count == 1)
    }
}
