import HeartRate
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

/// A small, well-known PRNG (Steele et al., SplitMix64) so property tests are reproducible.
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64
    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    mutating func below(_ bound: UInt64) -> UInt64 { next() % bound }
    mutating func chance(_ probability: Double) -> Bool { Double(next() >> 11) / Double(1 << 53) < probability }
}
