import Sensors
import Testing

/// Vectors written from the HRS 1.0 layout by hand (several as real straps send them, see
/// Tests/realbluez/example-trace.txt), one per flag combination that changes the layout.
struct MeasurementVector: CustomTestStringConvertible, Sendable {
    let hex: String
    let expected: HeartRateMeasurement
    var testDescription: String { hex }
}

private let vectors: [MeasurementVector] = [
    // bit0 rate format × bits1-2 contact
    .init(hex: "0048", expected: .init(beatsPerMinute: 72, sensorContact: .unsupported)),
    .init(hex: "0248", expected: .init(beatsPerMinute: 72, sensorContact: .unsupported)),
    .init(hex: "0400", expected: .init(beatsPerMinute: 0, sensorContact: .notDetected)),
    .init(hex: "0648", expected: .init(beatsPerMinute: 72, sensorContact: .detected)),
    .init(hex: "014800", expected: .init(beatsPerMinute: 72, sensorContact: .unsupported)),
    .init(hex: "072c01", expected: .init(beatsPerMinute: 300, sensorContact: .detected)),
    .init(hex: "05ffff", expected: .init(beatsPerMinute: 65535, sensorContact: .notDetected)),
    // bit3 energy expended
    .init(hex: "0e4d0c00", expected: .init(beatsPerMinute: 77, energyExpended: 12)),
    .init(hex: "0f4d000c00", expected: .init(beatsPerMinute: 77, energyExpended: 12)),
    .init(hex: "0e4dffff", expected: .init(beatsPerMinute: 77, energyExpended: 0xFFFF)),
    // bit4 RR intervals: none, one, several, with energy, with a 16-bit rate
    .init(hex: "1648", expected: .init(beatsPerMinute: 72, rrIntervals: [])),
    .init(hex: "16480003", expected: .init(beatsPerMinute: 72, rrIntervals: [768])),
    .init(hex: "164b34032f03", expected: .init(beatsPerMinute: 75, rrIntervals: [820, 815])),
    .init(hex: "1e4e0d001303", expected: .init(beatsPerMinute: 78, energyExpended: 13, rrIntervals: [787])),
    .init(hex: "175500d202", expected: .init(beatsPerMinute: 85, rrIntervals: [722])),
    .init(hex: "1f5c0015009c0299029e02", expected: .init(beatsPerMinute: 92, energyExpended: 21, rrIntervals: [668, 665, 670])),
    // reserved bits 5-7 are ignored
    .init(hex: "e648", expected: .init(beatsPerMinute: 72, sensorContact: .detected)),
    .init(hex: "ff5c0015009c02", expected: .init(beatsPerMinute: 92, energyExpended: 21, rrIntervals: [668])),
]

@Suite struct MeasurementParsingTests {
    @Test(arguments: vectors)
    func parsesSpecVector(_ vector: MeasurementVector) throws {
        let bytes = try Hex.decodeLenient(vector.hex)
        #expect(try HeartRateMeasurement(parsing: bytes) == vector.expected)
    }

    struct MalformedVector: Sendable, CustomTestStringConvertible {
        let hex: String
        let error: HeartRateMeasurementError
        let message: String
        var testDescription: String { hex.isEmpty ? "(empty)" : hex }
    }

    @Test(arguments: [
        MalformedVector(hex: "", error: .empty, message: "empty value: no flags byte"),
        MalformedVector(hex: "06", error: .truncatedRate(bits: 8, bytesAvailable: 0),
                        message: "flags promise an 8-bit rate but 0 bytes follow"),
        MalformedVector(hex: "0748", error: .truncatedRate(bits: 16, bytesAvailable: 1),
                        message: "flags promise a 16-bit rate but 1 byte follows"),
        MalformedVector(hex: "0e48", error: .truncatedEnergyExpended(bytesAvailable: 0),
                        message: "flags promise energy expended (2 bytes) but 0 bytes follow"),
        MalformedVector(hex: "0e480c", error: .truncatedEnergyExpended(bytesAvailable: 1),
                        message: "flags promise energy expended (2 bytes) but 1 byte follows"),
        MalformedVector(hex: "1648000302", error: .oddRRByte(rrBytes: 3),
                        message: "odd trailing byte in RR list (3 bytes of RR data)"),
        MalformedVector(hex: "1e480c0003", error: .oddRRByte(rrBytes: 1),
                        message: "odd trailing byte in RR list (1 byte of RR data)"),
        MalformedVector(hex: "064800", error: .unexpectedTrailingBytes(count: 1),
                        message: "1 byte after the last field the flags announce"),
    ])
    func rejectsMalformedValue(_ vector: MalformedVector) throws {
        let bytes = try Hex.decodeLenient(vector.hex)
        #expect(throws: vector.error) { try HeartRateMeasurement(parsing: bytes) }
        #expect(vector.error.description == vector.message)
    }

    @Test("every flags byte either parses or names its error, and reserved bits change nothing")
    func everyFlagsByte() throws {
        let body: [UInt8] = [0x48, 0x00, 0x0C, 0x00, 0x00, 0x03]
        for flags in 0...UInt8.max {
            for length in 0...body.count {
                let value = [flags] + body.prefix(length)
                let withoutReserved = [flags & 0x1F] + body.prefix(length)
                let parsed = Result { try HeartRateMeasurement(parsing: value) }
                let reference = Result { try HeartRateMeasurement(parsing: withoutReserved) }
                #expect(String(describing: parsed) == String(describing: reference), "flags \(flags), \(length) body bytes")
            }
        }
    }

    @Test func parsesFromASliceWithOffsetIndices() throws {
        let buffer: [UInt8] = [0xAA, 0x16, 0x48, 0x00, 0x03, 0xBB]
        #expect(try HeartRateMeasurement(parsing: buffer[1..<5]) == .init(beatsPerMinute: 72, rrIntervals: [768]))
    }

    @Test func rrIntervalsInSeconds() {
        let measurement = HeartRateMeasurement(beatsPerMinute: 60, rrIntervals: [1024, 512])
        #expect(measurement.rrIntervalSeconds == [1.0, 0.5])
    }
}
