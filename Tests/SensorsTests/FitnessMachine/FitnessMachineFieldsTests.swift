import Sensors
import Testing

/// The field walk both machine kinds share, against the tables of FTMS 1.0 §4.4 (0x2ACD) and §4.9
/// (0x2AD2). Expected values are worked out by hand from the tables (`hrbridge parse`'s tests hold
/// the full held-out vectors).
@Suite struct FitnessMachineFieldsTests {
    /// The byte count each flags word promises, summed by hand from the table: bit 0 clear adds the
    /// 2-byte speed; the other bits their fields.
    @Test(arguments: [
        (0x0000, 4),  // flags + speed
        (0x0001, 2),  // More Data: flags alone
        (0x0004, 7),  // + total distance (3)
        (0x0008, 8),  // + inclination and ramp angle (2 + 2)
        (0x0080, 9),  // + total energy, per hour, per minute (2 + 2 + 1)
        (0x0120, 6),  // + instantaneous pace (1), heart rate (1)
        (0x1000, 8),  // + force on belt and power output (2 + 2)
        (0x1FFE, 34), // every field, the speed too (bit 0 clear)
        (0xE000, 4),  // reserved bits 13-15 announce nothing
    ] as [(UInt16, Int)])
    func treadmillFlagsPromiseTheirFieldsBytes(flags: UInt16, size: Int) throws {
        let value = littleEndian(flags) + Array(repeating: 0x01, count: size - 2)
        _ = try TreadmillData(parsing: value)
        #expect(throws: FitnessMachineDataError.self) { try TreadmillData(parsing: Array(value.dropLast())) }
        #expect(try TreadmillData(parsing: value + [0xAB, 0xCD]).fields == TreadmillData(parsing: value).fields)
    }

    @Test(arguments: [
        (0x0000, 4), (0x0001, 2), (0x0004, 6), (0x0010, 7), (0x0100, 9), (0x0E00, 8), (0x1FFE, 30),
    ] as [(UInt16, Int)])
    func indoorBikeFlagsPromiseTheirFieldsBytes(flags: UInt16, size: Int) throws {
        let value = littleEndian(flags) + Array(repeating: 0x01, count: size - 2)
        _ = try IndoorBikeData(parsing: value)
        #expect(throws: FitnessMachineDataError.self) { try IndoorBikeData(parsing: Array(value.dropLast())) }
    }

    @Test func moreDataLeavesTheSpeedOutAndTheNextFieldStartsAtByteTwo() throws {
        // 0x0005: More Data, Total Distance 0x000064 = 100 m right after the flags.
        let data = try TreadmillData(parsing: [0x05, 0x00, 0x64, 0x00, 0x00])
        #expect(data.moreData)
        #expect(data.speed == nil)
        #expect(data.totalDistance == 100)
        #expect(data.speedMetersPerSecond == nil)
    }

    @Test func signedFieldsAreSignExtendedAndNotAvailableIsNil() throws {
        // 0x0008 inclination -2.5 % (0xFFE7), ramp angle 0x7FFF; 0x1000 force 0x8000 = -32768 N, power 0x7FFF.
        let data = try TreadmillData(parsing: [0x08, 0x10, 0x00, 0x00, 0xE7, 0xFF, 0xFF, 0x7F, 0x00, 0x80, 0xFF, 0x7F])
        #expect(data.inclination == -2.5)
        #expect(data.rampAngle == nil)
        #expect(data.fields[.rampAngleSetting] == 0x7FFF) // the raw value stays as sent
        #expect(data.forceOnBelt == -32768)
        #expect(data.powerOutput == nil)
    }

    @Test func errorsNameTheFieldTheBitAndTheOffset() {
        #expect(throws: FitnessMachineDataError.noFlags(bytesAvailable: 0)) { try TreadmillData(parsing: []) }
        #expect(throws: FitnessMachineDataError.noFlags(bytesAvailable: 1)) { try IndoorBikeData(parsing: [0x01]) }
        #expect(throws: FitnessMachineDataError.truncated(field: "instantaneous speed", flagBit: 0, size: 2, offset: 2, bytesAvailable: 0)) {
            try TreadmillData(parsing: [0x00, 0x00])
        }
        // 0x0204: speed, cadence (bit 2), heart rate (bit 9) missing at byte 6.
        #expect(throws: FitnessMachineDataError.truncated(field: "heart rate", flagBit: 9, size: 1, offset: 6, bytesAvailable: 0)) {
            try IndoorBikeData(parsing: [0x04, 0x02, 0xE8, 0x03, 0xB4, 0x00])
        }
    }

    @Test func theHeartRateIsWhatTheKindReportsBesideItsDistance() {
        // Treadmill bit 8 after the speed; indoor bike bit 9 after the speed.
        #expect(SensorKind.treadmill.heartRate(in: [0x00, 0x01, 0xE8, 0x03, 0x8C]) == 140)
        #expect(SensorKind.indoorBike.heartRate(in: [0x00, 0x02, 0xE8, 0x03, 0x8C]) == 140)
        #expect(SensorKind.treadmill.heartRate(in: [0x00, 0x00, 0xE8, 0x03]) == nil)
        #expect(SensorKind.treadmill.heartRate(in: [0x00, 0x01, 0xE8]) == nil) // does not parse
        #expect(SensorKind.runningSpeedCadence.heartRate(in: [0x00, 0x00, 0x03, 0xB4]) == nil)
    }
}
