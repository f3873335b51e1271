import Sensors
import Evaluation
import LiveState
import Testing

/// The distance figures on hand-made runs, each worked out on paper.
@Suite struct DistanceScoreTests {
    /// One metre a second, fed at t = 1, 2, … `until` (after the start and any update of its instant).
    private func oneMetreASecond(until: Int, updates: [ActivityUpdate]) -> DistanceTrack {
        let fed = (1...until).map { second in
            let before = updates.filter { $0.timestamp < Moments.at(Double(second)) }.count
            return DistanceTrack.Fed(time: Moments.at(Double(second)), meters: 1, updatesBefore: before)
        }
        return DistanceTrack(fed: fed, updates: updates)
    }

    @Test(arguments: [
        // The Lock Screen behind by 1, 2, 3, 4 m until the step shows 5 m at t = 5; the end shows 6.
        (changedAt: 5.0, largestLag: 4.0),
        // Shown half a second after the fifth metre: 5 m behind for that half second.
        (changedAt: 5.5, largestLag: 5.0),
        // Never shown before the end: 5 m behind from t = 5 until the end at t = 6.
        (changedAt: nil, largestLag: 5.0),
    ] as [(changedAt: Double?, largestLag: Double)])
    func lagIsWhatLastsBetweenUpdates(changedAt: Double?, largestLag: Double) {
        let changed = changedAt.map { [handMadeUpdate($0, .changed, meters: 5)] } ?? []
        let updates = [handMadeUpdate(0, .start)] + changed + [handMadeUpdate(6, .end(.stopped), meters: 6)]
        let score = DistanceScore(track: oneMetreASecond(until: 6, updates: updates), updates: updates)
        #expect(score.largestLagMeters == largestLag)
        #expect(score.shownMeters == 6)
        #expect(score.measuredMeters == 6)
    }

    @Test func everyActivityCountsAndTheFiguresAreToATenthOfAMetre() {
        let updates = [
            handMadeUpdate(0, .start), handMadeUpdate(3, .end(.sensorGone), meters: 0.3),
            handMadeUpdate(4, .start, activity: "b"), handMadeUpdate(9, .end(.stopped), activity: "b", meters: 0.2),
        ]
        let fed = [(1, 0.1), (2, 0.2), (5, 0.15), (8, 0.05)].map { second, meters in
            DistanceTrack.Fed(time: Moments.at(Double(second)), meters: meters,
                              updatesBefore: updates.filter { $0.timestamp < Moments.at(Double(second)) }.count)
        }
        let score = DistanceScore(track: DistanceTrack(fed: fed, updates: updates), updates: updates)
        #expect(score.shownMeters == 0.5) // 0.3 + 0.2, not only the last activity's
        #expect(score.measuredMeters == 0.5) // 0.1 + 0.2 (0.30000000000000004) + 0.15 + 0.05
        #expect(score.largestLagMeters == 0.3) // a's 0.3 m shown only at its end
    }

    @Test func measuredAndShownPartWhenTheUpdatesMissMeters() {
        // The engine's updates end at 4 m, but the sensor fed 6: the check evaluate exists for.
        let updates = [handMadeUpdate(0, .start), handMadeUpdate(6, .end(.stopped), meters: 4)]
        let score = DistanceScore(track: oneMetreASecond(until: 6, updates: updates), updates: updates)
        #expect(score.shownMeters == 4)
        #expect(score.measuredMeters == 6)
        #expect(score.largestLagMeters == 5)
    }

    @Test func totalAddsTheDistancesAndKeepsTheLargestLag() throws {
        /// A run whose whole distance comes at t = 1 and shows only at its end at t = 10.
        func score(_ meters: Double) -> DistanceScore {
            let updates = [handMadeUpdate(0, .start), handMadeUpdate(10, .end(.stopped), meters: meters)]
            let fed = [DistanceTrack.Fed(time: Moments.at(1), meters: meters, updatesBefore: 1)]
            return DistanceScore(track: DistanceTrack(fed: fed, updates: updates), updates: updates)
        }
        let total = try #require(DistanceScore.total([score(100.1), score(200.2), score(0.1)]))
        #expect(total.shownMeters == 300.4)
        #expect(total.measuredMeters == 300.4)
        #expect(total.largestLagMeters == 200.2)
        #expect(DistanceScore.total([]) == nil)
    }
}
