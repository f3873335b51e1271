import HeartRate
import Testing

/// The branch point named this test target without files; these keep it honest until the
/// foundation's own tests land: encode → parse must give back the same measurement.
@Suite struct HeartRateMeasurementRoundTripTests {
    @Test(arguments: [
        HeartRateMeasurement(beatsPerMinute: 72),
        HeartRateMeasurement(beatsPerMinute: 300, sensorContact: .notDetected, energyExpended: 12, rrIntervals: [800, 1024]),
        HeartRateMeasurement(beatsPerMinute: 0, sensorContact: .unsupported),
    ])
    func encodedThenParsedIsUnchanged(_ measurement: HeartRateMeasurement) throws {
        #expect(try HeartRateMeasurement(parsing: measurement.encoded()) == measurement)
    }

    @Test func knownBytesParse() throws {
        let measurement = try HeartRateMeasurement(parsing: [0x16, 0x48, 0x00, 0x03])
        #expect(measurement.beatsPerMinute == 72)
        #expect(measurement.sensorContact == .detected)
        #expect(measurement.rrIntervals == [0x0300])
    }
}
