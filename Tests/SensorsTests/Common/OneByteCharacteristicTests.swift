import Sensors
import Testing

@Suite struct OneByteCharacteristicTests {
    @Test(arguments: [
        (UInt8(0), "other"), (1, "chest"), (2, "wrist"), (3, "finger"), (4, "hand"), (5, "ear-lobe"),
        (6, "foot"), (7, "reserved-7"), (255, "reserved-255"),
    ])
    func bodySensorLocation(code: UInt8, name: String) throws {
        let location = try BodySensorLocation(parsing: [code])
        #expect(location.name == name)
        #expect(location.code == code)
    }

    @Test func bodySensorLocationNeedsExactlyOneByte() {
        #expect(throws: SingleByteValueError.wrongLength(0)) { try BodySensorLocation(parsing: [UInt8]()) }
        #expect(throws: SingleByteValueError.wrongLength(2)) { try BodySensorLocation(parsing: [1, 0]) }
        #expect(SingleByteValueError.wrongLength(2).description == "expected exactly 1 byte, got 2")
    }

    @Test(arguments: [UInt8(0), 57, 100])
    func batteryLevelInRange(percent: UInt8) throws {
        #expect(try BatteryLevel(parsing: [percent]).percent == percent)
    }

    @Test(arguments: [UInt8(101), 200, 255])
    func batteryLevelAbove100IsRejected(percent: UInt8) {
        #expect(throws: SingleByteValueError.outOfRange(percent, maximum: 100)) { try BatteryLevel(parsing: [percent]) }
    }

    @Test func batteryLevelMessage() {
        #expect(SingleByteValueError.outOfRange(101, maximum: 100).description == "value 101 is above the maximum 100")
    }
}
