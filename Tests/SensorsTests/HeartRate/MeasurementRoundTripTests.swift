import Sensors
import TestSupport
import Testing

/// encode → parse over random valid measurements, with a fixed seed so a failure reproduces.
@Suite struct MeasurementRoundTripTests {
    @Test(arguments: HeartRateMeasurement.RateFormat.allCases)
    func roundTripsRandomMeasurements(format: HeartRateMeasurement.RateFormat) throws {
        var random = SplitMix64(seed: 0x2A37)
        for _ in 0..<5_000 {
            let measurement = HeartRateMeasurement(
                beatsPerMinute: random.chance(0.8) ? UInt16(random.below(256)) : UInt16(random.below(65_536)),
                sensorContact: SensorContact.allCases[Int(random.below(3))],
                energyExpended: random.chance(0.3) ? UInt16(random.below(65_536)) : nil,
                rrIntervals: (0..<random.below(10)).map { _ in UInt16(random.below(65_536)) }
            )
            let bytes = measurement.encoded(rateFormat: format)
            #expect(try HeartRateMeasurement(parsing: bytes) == measurement, "\(Hex.encode(bytes))")
        }
    }

    @Test func compactFormatUsesEightBitsWhenTheRateFits() {
        #expect(HeartRateMeasurement(beatsPerMinute: 255).encoded() == [0x06, 0xFF])
        #expect(HeartRateMeasurement(beatsPerMinute: 256).encoded() == [0x07, 0x00, 0x01])
        #expect(HeartRateMeasurement(beatsPerMinute: 72).encoded(rateFormat: .sixteenBit) == [0x07, 0x48, 0x00])
    }
}
