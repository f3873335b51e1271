import Sensors
import Testing

/// Keeps what a measurement wrote, typed, so a test can compare it whole.
struct RecordedFields: MeasurementFieldWriter {
    enum Value: Equatable {
        case integer(Int64), integers([Int64]), double(Double), bool(Bool), string(String), absent
    }

    var fields: [String: Value] = [:]
    var order: [String] = []

    private mutating func record(_ name: StaticString, _ value: Value) {
        order.append("\(name)")
        fields["\(name)"] = value
    }

    mutating func integer<Integer: BinaryInteger>(_ name: StaticString, _ value: Integer) {
        record(name, .integer(Int64(value)))
    }

    mutating func optionalInteger<Integer: BinaryInteger>(_ name: StaticString, _ value: Integer?) {
        record(name, value.map { .integer(Int64($0)) } ?? .absent)
    }

    mutating func integers<Integer: BinaryInteger>(_ name: StaticString, _ values: [Integer]) {
        record(name, .integers(values.map { Int64($0) }))
    }

    mutating func double(_ name: StaticString, _ value: Double) { record(name, .double(value)) }
    mutating func optionalDouble(_ name: StaticString, _ value: Double?) { record(name, value.map { .double($0) } ?? .absent) }
    mutating func bool(_ name: StaticString, _ value: Bool) { record(name, .bool(value)) }
    mutating func string(_ name: StaticString, _ value: String) { record(name, .string(value)) }
}

@Suite struct SensorKindTests {
    @Test func registersEachKindWithItsAssignedNumbers() {
        let registered = SensorKind.all.map {
            [$0.name, $0.service.shortForm, $0.measurementCharacteristic.shortForm]
        }
        #expect(registered == [
            ["heart rate", "180d", "2a37"],
            ["running speed and cadence", "1814", "2a53"],
            ["cycling speed and cadence", "1816", "2a5b"],
            ["treadmill", "1826", "2acd"],
            ["indoor bike", "1826", "2ad2"],
        ])
        #expect(SensorKind.all.map(\.contribution.givesDistance) == [false, true, true, true, true])
    }

    @Test func findsEachRegisteredKindByItsCharacteristic() throws {
        for kind in SensorKind.all {
            let found = try #require(SensorKind.measured(on: kind.measurementCharacteristic))
            #expect(found.name == kind.name)
        }
        #expect(SensorKind.measured(on: .batteryLevel) == nil)
        #expect(SensorKind.measured(on: BluetoothUUID(assigned: 0x2ACC)) == nil) // the machines' feature: read, not measured
    }

    @Test(arguments: [
        ("heart rate", "16 48 0003", ["bpm", "contact", "energyExpended", "rr"], [
            "bpm": .integer(72), "contact": .string("detected"), "energyExpended": .absent, "rr": .integers([768]),
        ]),
        // 0x0380 / 256 = 3.5 m/s, 0x007d / 100 = 1.25 m, no total distance (bit 1 clear), running (bit 2)
        ("running speed and cadence", "05 8003 b4 7d00", ["speed", "cadence", "strideLength", "totalDistance", "running"], [
            "speed": .double(3.5), "cadence": .integer(180), "strideLength": .double(1.25),
            "totalDistance": .absent, "running": .bool(true),
        ]),
        // wheel only: 0x00002710 = 10000 revolutions, last event at 0x0400 = 1024/1024 s
        ("cycling speed and cadence", "01 10270000 0004",
         ["wheelRevolutions", "lastWheelEventTime", "crankRevolutions", "lastCrankEventTime"], [
            "wheelRevolutions": .integer(10000), "lastWheelEventTime": .integer(1024),
            "crankRevolutions": .absent, "lastCrankEventTime": .absent,
        ]),
    ] as [(String, String, [String], [String: RecordedFields.Value])])
    func describesAMeasurementFieldByField(kindName: String, hex: String, order: [String],
                                           fields: [String: RecordedFields.Value]) throws {
        let kind = try #require(SensorKind.all.first { $0.name == kindName })
        var recorded = RecordedFields()
        try kind.describe(Hex.decodeLenient(hex), into: &recorded)
        #expect(recorded.order == order)
        #expect(recorded.fields == fields)
    }

    @Test func describingAMalformedValueThrowsTheKindsOwnError() {
        var recorded = RecordedFields()
        #expect(throws: RunningSpeedCadenceError.truncated(.totalDistance, bytesAvailable: 2)) {
            try SensorKind.runningSpeedCadence.describe([0x06, 0x80, 0x03, 0xB4, 0x39, 0x30], into: &recorded)
        }
        #expect(throws: CyclingSpeedCadenceError.empty) { try SensorKind.cyclingSpeedCadence.describe([], into: &recorded) }
        #expect(recorded.order.isEmpty)
    }
}
