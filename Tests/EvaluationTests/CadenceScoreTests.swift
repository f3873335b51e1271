import Sensors
import Evaluation
import LiveState
import Testing

/// The evaluation measures on hand-made runs, where every figure can be worked out on paper.
@Suite struct CadenceScoreTests {
    private func at(_ seconds: Double) -> Timestamp { Moments.at(seconds) }

    private func update(_ seconds: Double, _ reason: UpdateReason, _ rate: Int?, stale: Double = 120) -> ActivityUpdate {
        ActivityUpdate(
            event: reason == .start ? .start : (reason.endCause != nil ? .end : .update),
            activityID: "a", sequence: 1, timestamp: at(seconds), staleDate: at(seconds + stale),
            priority: reason.isImmediate ? 10 : 5, reason: reason, attributes: .init(workoutName: "W"),
            contentState: .init(timerRange: at(0).date...at(0).date, heartRate: rate, intervalLabel: "")
        )
    }

    private func samples(_ rate: Int, _ range: Range<Int>) -> [(time: Timestamp, rate: Int)] {
        range.map { (at(Double($0)), rate) }
    }

    @Test func steadyRateShownExactlyIsAllWithinAndNeverStale() {
        let score = CadenceScore(
            samples: samples(100, 0..<10), updates: [update(0, .start, 100), update(10, .end(.stopped), 100)], span: at(0)...at(10)
        )
        // Live from the first sample to the last (the last one holds for nothing, as the oracle counts).
        #expect(score.liveSeconds == 9)
        #expect(score.shownSeconds == 10)
        #expect(score.withinToleranceShare == 1)
        #expect(score.staleLiveSeconds == 0)
        #expect(score.updatesPerHour == 720)
        #expect(score.updatesByReason == ["start": 1, "end:stopped": 1])
    }

    @Test func shownRateOutsideToleranceFromTheFirstSampleThatLeavesIt() {
        // 100 until t = 4, then 110: what the strap says is the truth, so 100 is wrong from t = 5;
        // with a 5 s median as the truth (three of five samples) only from t = 7.
        let run = samples(100, 0..<5) + samples(110, 5..<10)
        let score = CadenceScore(samples: run, updates: [update(0, .start, 100)], span: at(0)...at(10))
        #expect(score.liveSeconds == 9)
        #expect(score.withinToleranceSeconds == 5)
        var median = CadenceScore.Truth()
        median.windowSeconds = 5
        #expect(CadenceScore(samples: run, updates: [update(0, .start, 100)], span: at(0)...at(10), truth: median).withinToleranceSeconds == 7)
    }

    @Test func sparseSourceTruthIsTheNewestSampleInAGap() {
        // One sample at 0 (100) and one at 8 (120): with a 5 s median as the truth, from 5 to 8 the
        // window is empty and 100 still counts.
        var median = CadenceScore.Truth()
        median.windowSeconds = 5
        let score = CadenceScore(samples: [(at(0), 100), (at(8), 120)], updates: [update(0, .start, 100)], span: at(0)...at(10), truth: median)
        #expect(score.withinToleranceSeconds == 8)
    }

    @Test func timePastTheStaleDateWhileLiveIsCounted() {
        let score = CadenceScore(samples: samples(100, 0..<10), updates: [update(0, .start, 100, stale: 4)], span: at(0)...at(10))
        #expect(score.staleLiveSeconds == 6)
    }

    @Test func lostTimeIsNotLiveAndLossDelayIsFromTheLastSample() {
        let updates = [update(0, .start, 100), update(15, .sensorLost, nil, stale: 1), update(30, .sensorBack, 100), update(40, .end(.stopped), 100)]
        let score = CadenceScore(samples: samples(100, 0..<6) + samples(100, 30..<40), updates: updates, span: at(0)...at(40))
        #expect(score.lossDelays == [10])
        #expect(score.liveSeconds == 14) // 0–5 and 30–39: the gap from 5 to 30 is not live
        #expect(score.shownSeconds == 25) // 0–15 and 30–40; stale while lost does not count
        #expect(score.staleLiveSeconds == 0)
        #expect(score.dropouts == 1 && score.dropoutsSaid == 1)
    }

    /// Live time the phone shows no number for is not within the tolerance: a return held back, or a
    /// loss never said, shows in the figure.
    @Test func aLiveStrapShownAsLostCountsAgainstTheTruthAndAnUnsaidDropoutIsCounted() {
        let held = [update(0, .start, 100), update(15, .sensorLost, nil), update(50, .sensorBack, 100), update(60, .end(.stopped), 100)]
        let strap = samples(100, 0..<6) + samples(100, 30..<60)
        let late = CadenceScore(samples: strap, updates: held, span: at(0)...at(60))
        #expect(late.liveSeconds == 34) // 0–5 and 30–59
        #expect(late.withinToleranceSeconds == 14) // 0–5 and 50–59: 30–50 showed nothing
        let unsaid = CadenceScore(samples: strap, updates: [update(0, .start, 100), update(60, .end(.stopped), 100)], span: at(0)...at(60))
        #expect(unsaid.dropouts == 1 && unsaid.dropoutsSaid == 0)
        let tooLate = CadenceScore(samples: strap, updates: [update(0, .start, 100), update(25, .sensorLost, nil), update(60, .end(.stopped), 100)],
                                   span: at(0)...at(60))
        #expect(tooLate.dropouts == 1 && tooLate.dropoutsSaid == 0, "said 20 s after the last sample")
    }

    @Test func totalAddsUpAndKeepsTheWorst() {
        let one = CadenceScore(samples: samples(100, 0..<10), updates: [update(0, .start, 100)], span: at(0)...at(10))
        let two = CadenceScore(samples: samples(100, 0..<5) + samples(110, 5..<10), updates: [update(0, .start, 100)], span: at(0)...at(10))
        let total = CadenceScore.total([one, two])
        #expect(total.durationSeconds == 20)
        #expect(total.samples == 20)
        #expect(total.withinToleranceShare == 14.0 / 18)
        #expect(total.updatesByReason == ["start": 2])
        #expect(total.largestPayloadBytes == one.largestPayloadBytes)
    }

    @Test func distanceIsScoredOnlyForRunsWithADistanceSensor() throws {
        let updates = [update(0, .start, 100), update(10, .end(.stopped), 100)]
        let fed = [DistanceTrack.Fed(time: at(5), meters: 12, updatesBefore: 1)]
        let withSensor = CadenceScore(samples: samples(100, 0..<10), updates: updates, span: at(0)...at(10),
                                      distance: DistanceTrack(fed: fed, updates: updates))
        let without = CadenceScore(samples: samples(100, 0..<10), updates: updates, span: at(0)...at(10))
        #expect(withSensor.distance?.measuredMeters == 12)
        #expect(without.distance == nil)
        #expect(CadenceScore.total([withSensor, without]).distance == withSensor.distance)
        #expect(CadenceScore.total([without, without]).distance == nil)
    }
}
