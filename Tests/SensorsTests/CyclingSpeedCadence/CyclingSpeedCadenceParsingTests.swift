import Sensors
import Testing

/// Vectors written by hand from the CSCS 1.0 layout: flags, then wheel revolutions u32 + last wheel
/// event time u16 (bit 0), then crank revolutions u16 + last crank event time u16 (bit 1);
/// little-endian, times in 1/1024 s. The numbers: wheel 0x00002710 = 10000 revolutions at 0x0400 =
/// 1024 (1 s), crank 0x012c = 300 revolutions at 0x0800 = 2048 (2 s).
struct CyclingVector: CustomTestStringConvertible, Sendable {
    let hex: String
    let expected: CyclingSpeedCadenceMeasurement
    var testDescription: String { hex }
}

private let wheel = CyclingSpeedCadenceMeasurement.WheelRevolutions(cumulativeRevolutions: 10000, lastEventTime: 1024)
private let crank = CyclingSpeedCadenceMeasurement.CrankRevolutions(cumulativeRevolutions: 300, lastEventTime: 2048)

private let vectors: [CyclingVector] = [
    // every combination of bits 0-1 (a flags byte alone is a sensor with nothing to say yet)
    .init(hex: "00", expected: .init()),
    .init(hex: "01 10270000 0004", expected: .init(wheel: wheel)),
    .init(hex: "02 2c01 0008", expected: .init(crank: crank)),
    .init(hex: "03 10270000 0004 2c01 0008", expected: .init(wheel: wheel, crank: crank)),
    // every field at its maximum, and at zero
    .init(hex: "03 ffffffff ffff ffff ffff", expected: .init(
        wheel: .init(cumulativeRevolutions: .max, lastEventTime: .max),
        crank: .init(cumulativeRevolutions: .max, lastEventTime: .max))),
    .init(hex: "03 00000000 0000 0000 0000", expected: .init(
        wheel: .init(cumulativeRevolutions: 0, lastEventTime: 0), crank: .init(cumulativeRevolutions: 0, lastEventTime: 0))),
    // reserved bits 2-7 are ignored
    .init(hex: "fc", expected: .init()),
    .init(hex: "fd 10270000 0004", expected: .init(wheel: wheel)),
    .init(hex: "ff 10270000 0004 2c01 0008", expected: .init(wheel: wheel, crank: crank)),
    // bytes after the flagged fields are ignored (a later spec version's fields)
    .init(hex: "00 aabb", expected: .init()),
    .init(hex: "01 10270000 0004 2c01 0008", expected: .init(wheel: wheel)),
    .init(hex: "03 10270000 0004 2c01 0008 01", expected: .init(wheel: wheel, crank: crank)),
]

@Suite struct CyclingSpeedCadenceParsingTests {
    @Test(arguments: vectors)
    func parsesSpecVector(_ vector: CyclingVector) throws {
        #expect(try CyclingSpeedCadenceMeasurement(parsing: Hex.decodeLenient(vector.hex)) == vector.expected)
    }

    struct MalformedVector: Sendable, CustomTestStringConvertible {
        let hex: String
        let error: CyclingSpeedCadenceError
        let message: String
        var testDescription: String { hex.isEmpty ? "(empty)" : hex }
    }

    @Test(arguments: [
        MalformedVector(hex: "", error: .empty, message: "empty value: no flags byte"),
        MalformedVector(hex: "01", error: .truncated(.wheelRevolutions, bytesAvailable: 0),
                        message: "flags promise cumulative wheel revolutions (4 bytes) but 0 bytes follow"),
        MalformedVector(hex: "03 102700", error: .truncated(.wheelRevolutions, bytesAvailable: 3),
                        message: "flags promise cumulative wheel revolutions (4 bytes) but 3 bytes follow"),
        MalformedVector(hex: "01 10270000", error: .truncated(.lastWheelEventTime, bytesAvailable: 0),
                        message: "flags promise last wheel event time (2 bytes) but 0 bytes follow"),
        MalformedVector(hex: "01 10270000 00", error: .truncated(.lastWheelEventTime, bytesAvailable: 1),
                        message: "flags promise last wheel event time (2 bytes) but 1 byte follows"),
        MalformedVector(hex: "02", error: .truncated(.crankRevolutions, bytesAvailable: 0),
                        message: "flags promise cumulative crank revolutions (2 bytes) but 0 bytes follow"),
        MalformedVector(hex: "03 10270000 0004 2c", error: .truncated(.crankRevolutions, bytesAvailable: 1),
                        message: "flags promise cumulative crank revolutions (2 bytes) but 1 byte follows"),
        MalformedVector(hex: "02 2c01", error: .truncated(.lastCrankEventTime, bytesAvailable: 0),
                        message: "flags promise last crank event time (2 bytes) but 0 bytes follow"),
        MalformedVector(hex: "03 10270000 0004 2c01 00", error: .truncated(.lastCrankEventTime, bytesAvailable: 1),
                        message: "flags promise last crank event time (2 bytes) but 1 byte follows"),
    ])
    func rejectsTruncatedValue(_ vector: MalformedVector) throws {
        let bytes = try Hex.decodeLenient(vector.hex)
        #expect(throws: vector.error) { try CyclingSpeedCadenceMeasurement(parsing: bytes) }
        #expect(vector.error.description == vector.message)
    }

    @Test("every flags byte either parses or names its error; reserved bits and extra bytes change nothing")
    func everyFlagsByte() throws {
        let body: [UInt8] = [0x10, 0x27, 0x00, 0x00, 0x00, 0x04, 0x2C, 0x01, 0x00, 0x08]
        for flags in 0...UInt8.max {
            for length in 0...body.count {
                let value = [flags] + body.prefix(length)
                let withoutReserved = [flags & 0x03] + body.prefix(length)
                let parsed = Result { try CyclingSpeedCadenceMeasurement(parsing: value) }
                let reference = Result { try CyclingSpeedCadenceMeasurement(parsing: withoutReserved) }
                #expect(String(describing: parsed) == String(describing: reference), "flags \(flags), \(length) body bytes")
                if case let .success(measurement) = parsed {
                    let padded = value + [0xAA, 0xBB]
                    #expect(try CyclingSpeedCadenceMeasurement(parsing: padded) == measurement)
                }
            }
        }
    }

    @Test func parsesFromASliceWithOffsetIndices() throws {
        let buffer: [UInt8] = [0xAA, 0x02, 0x2C, 0x01, 0x00, 0x08]
        #expect(try CyclingSpeedCadenceMeasurement(parsing: buffer[1...]) == .init(crank: crank))
    }
}
