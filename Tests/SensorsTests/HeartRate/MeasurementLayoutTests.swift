import Sensors
import TestSupport
import Testing

/// The layout (what the live state reads per sample, without copying the RR list) agrees with the
/// full parse on every flags byte and every length: same error, or same fields and RR position.
@Suite struct MeasurementLayoutTests {
    @Test func layoutAgreesWithTheFullParseOnEveryFlagsByteAndLength() {
        var random = SplitMix64(seed: 0x2A38)
        for flags in 0...255 {
            for length in 0...9 {
                let value = [UInt8(flags)] + (0..<length).map { _ in UInt8(random.below(256)) }
                let parsed = Result { () throws(HeartRateMeasurementError) in try HeartRateMeasurement(parsing: value) }
                let layout = Result { () throws(HeartRateMeasurementError) in try HeartRateMeasurementLayout(parsing: value) }
                switch (parsed, layout) {
                case let (.success(measurement), .success(layout)):
                    #expect(layout.beatsPerMinute == measurement.beatsPerMinute)
                    #expect(layout.sensorContact == measurement.sensorContact)
                    #expect(layout.energyExpended == measurement.energyExpended)
                    #expect(layout.rrIntervalCount == measurement.rrIntervals.count)
                    #expect(layout.rrIntervalsStart + 2 * layout.rrIntervalCount == value.count)
                case let (.failure(parseError), .failure(layoutError)):
                    #expect(parseError == layoutError)
                default:
                    Issue.record("parse and layout disagree on \(Hex.encode(value))")
                }
            }
        }
    }
}
