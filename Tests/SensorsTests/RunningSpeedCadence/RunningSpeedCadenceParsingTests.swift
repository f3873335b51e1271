import Sensors
import Testing

/// Vectors written by hand from the RSCS 1.0 layout: flags, speed u16 (1/256 m/s), cadence u8,
/// stride u16 (1/100 m, bit 0), total distance u32 (1/10 m, bit 1), bit 2 running; little-endian.
/// The running numbers: speed 0x0300 = 768 (3 m/s) or 0x0380 = 896 (3.5 m/s), cadence 0xb4 = 180,
/// stride 0x007d = 125 (1.25 m), total 0x00003039 = 12345 (1234.5 m).
struct RunningVector: CustomTestStringConvertible, Sendable {
    let hex: String
    let expected: RunningSpeedCadenceMeasurement
    var testDescription: String { hex }
}

private let vectors: [RunningVector] = [
    // every combination of bits 0-2
    .init(hex: "00 0003 b4", expected: .init(speed: 768, cadence: 180, isRunning: false)),
    .init(hex: "01 0003 b4 7d00", expected: .init(speed: 768, cadence: 180, strideLength: 125, isRunning: false)),
    .init(hex: "02 0003 b4 39300000", expected: .init(speed: 768, cadence: 180, totalDistance: 12345, isRunning: false)),
    .init(hex: "03 0003 b4 7d00 39300000",
          expected: .init(speed: 768, cadence: 180, strideLength: 125, totalDistance: 12345, isRunning: false)),
    .init(hex: "04 8003 b4", expected: .init(speed: 896, cadence: 180, isRunning: true)),
    .init(hex: "05 8003 b4 7d00", expected: .init(speed: 896, cadence: 180, strideLength: 125, isRunning: true)),
    .init(hex: "06 8003 b4 39300000", expected: .init(speed: 896, cadence: 180, totalDistance: 12345, isRunning: true)),
    .init(hex: "07 8003 b4 7d00 39300000",
          expected: .init(speed: 896, cadence: 180, strideLength: 125, totalDistance: 12345, isRunning: true)),
    // standing still, and every field at its maximum
    .init(hex: "00 0000 00", expected: .init(speed: 0, cadence: 0, isRunning: false)),
    .init(hex: "07 ffff ff ffff ffffffff",
          expected: .init(speed: .max, cadence: .max, strideLength: .max, totalDistance: .max, isRunning: true)),
    // reserved bits 3-7 are ignored
    .init(hex: "f8 0003 b4", expected: .init(speed: 768, cadence: 180, isRunning: false)),
    .init(hex: "ff 8003 b4 7d00 39300000",
          expected: .init(speed: 896, cadence: 180, strideLength: 125, totalDistance: 12345, isRunning: true)),
    // bytes after the flagged fields are ignored (a later spec version's fields)
    .init(hex: "04 8003 b4 aabb", expected: .init(speed: 896, cadence: 180, isRunning: true)),
    .init(hex: "05 8003 b4 7d00 39300000", expected: .init(speed: 896, cadence: 180, strideLength: 125, isRunning: true)),
    .init(hex: "07 8003 b4 7d00 39300000 01",
          expected: .init(speed: 896, cadence: 180, strideLength: 125, totalDistance: 12345, isRunning: true)),
]

@Suite struct RunningSpeedCadenceParsingTests {
    @Test(arguments: vectors)
    func parsesSpecVector(_ vector: RunningVector) throws {
        #expect(try RunningSpeedCadenceMeasurement(parsing: Hex.decodeLenient(vector.hex)) == vector.expected)
    }

    struct MalformedVector: Sendable, CustomTestStringConvertible {
        let hex: String
        let error: RunningSpeedCadenceError
        let message: String
        var testDescription: String { hex.isEmpty ? "(empty)" : hex }
    }

    @Test(arguments: [
        MalformedVector(hex: "", error: .empty, message: "empty value: no flags byte"),
        MalformedVector(hex: "04", error: .truncated(.speed, bytesAvailable: 0),
                        message: "every value carries instantaneous speed (2 bytes) but 0 bytes follow"),
        MalformedVector(hex: "04 80", error: .truncated(.speed, bytesAvailable: 1),
                        message: "every value carries instantaneous speed (2 bytes) but 1 byte follows"),
        MalformedVector(hex: "04 8003", error: .truncated(.cadence, bytesAvailable: 0),
                        message: "every value carries instantaneous cadence (1 byte) but 0 bytes follow"),
        MalformedVector(hex: "05 8003 b4", error: .truncated(.strideLength, bytesAvailable: 0),
                        message: "flags promise stride length (2 bytes) but 0 bytes follow"),
        MalformedVector(hex: "07 8003 b4 7d", error: .truncated(.strideLength, bytesAvailable: 1),
                        message: "flags promise stride length (2 bytes) but 1 byte follows"),
        MalformedVector(hex: "06 8003 b4", error: .truncated(.totalDistance, bytesAvailable: 0),
                        message: "flags promise total distance (4 bytes) but 0 bytes follow"),
        MalformedVector(hex: "06 8003 b4 3930", error: .truncated(.totalDistance, bytesAvailable: 2),
                        message: "flags promise total distance (4 bytes) but 2 bytes follow"),
        MalformedVector(hex: "07 8003 b4 7d00 393000", error: .truncated(.totalDistance, bytesAvailable: 3),
                        message: "flags promise total distance (4 bytes) but 3 bytes follow"),
    ])
    func rejectsTruncatedValue(_ vector: MalformedVector) throws {
        let bytes = try Hex.decodeLenient(vector.hex)
        #expect(throws: vector.error) { try RunningSpeedCadenceMeasurement(parsing: bytes) }
        #expect(vector.error.description == vector.message)
    }

    @Test("every flags byte either parses or names its error; reserved bits and extra bytes change nothing")
    func everyFlagsByte() throws {
        let body: [UInt8] = [0x80, 0x03, 0xB4, 0x7D, 0x00, 0x39, 0x30, 0x00, 0x00]
        for flags in 0...UInt8.max {
            for length in 0...body.count {
                let value = [flags] + body.prefix(length)
                let withoutReserved = [flags & 0x07] + body.prefix(length)
                let parsed = Result { try RunningSpeedCadenceMeasurement(parsing: value) }
                let reference = Result { try RunningSpeedCadenceMeasurement(parsing: withoutReserved) }
                #expect(String(describing: parsed) == String(describing: reference), "flags \(flags), \(length) body bytes")
                if case let .success(measurement) = parsed {
                    let padded = value + [0xAA, 0xBB]
                    #expect(try RunningSpeedCadenceMeasurement(parsing: padded) == measurement)
                }
            }
        }
    }

    @Test func parsesFromASliceWithOffsetIndices() throws {
        let buffer: [UInt8] = [0xAA, 0x06, 0x80, 0x03, 0xB4, 0x39, 0x30, 0x00, 0x00]
        #expect(try RunningSpeedCadenceMeasurement(parsing: buffer[1...])
            == .init(speed: 896, cadence: 180, totalDistance: 12345, isRunning: true))
    }

    @Test func convertsWireUnitsToMeters() {
        let measurement = RunningSpeedCadenceMeasurement(
            speed: 896, cadence: 180, strideLength: 125, totalDistance: 12345, isRunning: true
        )
        #expect(measurement.speedMetersPerSecond == 3.5)
        #expect(measurement.strideLengthMeters == 1.25)
        #expect(measurement.totalDistanceMeters == 1234.5)
        let bare = RunningSpeedCadenceMeasurement(speed: 1, cadence: 0, isRunning: false)
        #expect(bare.speedMetersPerSecond == 1.0 / 256)
        #expect(bare.strideLengthMeters == nil)
        #expect(bare.totalDistanceMeters == nil)
    }
}
