import Sensors
import Evaluation
import LiveState
import Testing

/// The offline optimum on runs small enough to work out on paper (the fixture recordings are checked
/// against the oracle's own figures in `CadenceOptimumOracleTests`).
@Suite struct CadenceOptimumTests {
    private func samples(_ rates: [Int], from start: Double = 0) -> [(time: Timestamp, rate: Int)] {
        rates.enumerated().map { (Moments.at(start + Double($0.offset)), $0.element) }
    }

    @Test func aSteadyRateNeedsNoRoutineUpdate() {
        let optimum = CadenceOptimum(samples: samples(Array(repeating: 120, count: 61)), upTo: 3)
        #expect(optimum.liveSeconds == 60) // the last sample holds for nothing
        #expect(optimum.coveredSeconds == [60, 60, 60, 60])
    }

    @Test func aStepCostsOneUpdate() {
        // 100 for 10 s, then 120 for 10 s: one value covers one half; an update at 10 covers both.
        let optimum = CadenceOptimum(samples: samples(Array(repeating: 100, count: 10) + Array(repeating: 120, count: 11)), upTo: 2)
        #expect(optimum.liveSeconds == 20)
        #expect(optimum.coveredSeconds == [10, 20, 20])
        #expect(optimum.share(routineUpdates: 0) == 0.5)
        #expect(optimum.share(routineUpdates: 9) == 1, "beyond the curve: its end")
    }

    @Test func updatesAreThreeSecondsApart() {
        // A step after 1 s: an update at 1 would cover everything, but the earliest is at 3, which
        // covers 1 + 17 s; the start showing 120 covers 19 s already.
        let optimum = CadenceOptimum(samples: samples([100] + Array(repeating: 120, count: 20)), upTo: 2)
        #expect(optimum.coveredSeconds == [19, 19, 19])
    }

    @Test func eachLiveStretchStartsFreeAndAGapIsNotLive() {
        // 100 for 10 s, a 30 s gap, 140 for 10 s: two stretches, each with its own free first update.
        let optimum = CadenceOptimum(samples: samples(Array(repeating: 100, count: 11)) + samples(Array(repeating: 140, count: 11), from: 40),
                                     upTo: 1)
        #expect(optimum.liveSeconds == 20)
        #expect(optimum.coveredSeconds == [20, 20])
    }

    @Test func theToleranceIsABandAroundTheValueShown() {
        // 100, 110, 100, 110…: 105 covers all at ±5, nothing covers both at ±4.
        let rates = (0..<31).map { $0 % 2 == 0 ? 100 : 110 }
        #expect(CadenceOptimum(samples: samples(rates), upTo: 0).coveredSeconds == [30])
        #expect(CadenceOptimum(samples: samples(rates), upTo: 0, tolerance: 4).coveredSeconds == [15])
    }
}
