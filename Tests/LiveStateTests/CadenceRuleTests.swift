import Sensors
import LiveState
import Testing

/// The cadence rules, each driven with an injected clock (EngineScript gives every time).
@Suite struct CadenceRuleTests {
    @Test(arguments: [
        // A steady 100 bpm, then a step at t = 10 s. The 5 s median follows once the new value holds
        // three of the five samples (t = 12); a move below the 5 bpm threshold is not worth an update.
        (104, [String]()),
        (105, ["12 update changed 105 p5"]),
        (96, []),
        (95, ["12 update changed 95 p5"]),
        (160, ["12 update changed 160 p5"]),
    ])
    func thresholdDecidesWhetherAMoveIsShown(newRate: Int, expected: [String]) throws {
        var script = EngineScript()
        script.samples(100, from: 0, to: 10)
        script.samples(newRate, from: 10, to: 40)
        #expect(try script.described().dropFirst() == ["0 start start 100 p10"].dropFirst() + expected)
        #expect(try script.described().first == "0 start start 100 p10")
    }

    @Test func oneSpikeDoesNotMoveTheDisplayedRate() throws {
        var script = EngineScript()
        script.samples(100, from: 0, to: 30)
        script.add(.sample(beatsPerMinute: 180, contact: .detected), at: 15.5)
        script.samples(100, from: 30, to: 31)
        #expect(try script.described() == ["0 start start 100 p10"])
    }

    @Test(arguments: [
        // floor, expected updates: 100 → 120 from t = 10, → 140 from t = 12 (median 140 at t = 14)
        (3.0, ["0 start start 100 p10", "12 update changed 120 p5", "15 update changed 140 p5"]),
        (10.0, ["0 start start 100 p10", "12 update changed 120 p5", "22 update changed 140 p5"]),
        (0.0, ["0 start start 100 p10", "12 update changed 120 p5", "14 update changed 140 p5"]),
    ])
    func floorHoldsRoutineUpdatesApart(floor: Double, expected: [String]) throws {
        var policy = CadencePolicy()
        policy.minimumInterval = floor
        var script = EngineScript()
        script.samples(100, from: 0, to: 10)
        script.samples(120, from: 10, to: 12)
        script.samples(140, from: 12, to: 30)
        #expect(try script.described(policy) == expected)
    }

    @Test func floorDoesNotHoldBackStateChanges() throws {
        var policy = CadencePolicy()
        policy.minimumInterval = 30
        var script = EngineScript()
        script.samples(100, from: 0, to: 5)
        script.add(.pause, at: 1)
        script.add(.label("Interval 1"), at: 2)
        script.add(.resume, at: 3)
        #expect(try script.described(policy) == [
            "0 start start 100 p10", "1 update paused 100 p5", "2 update label 100 p5", "3 update resumed 100 p5",
        ])
    }

    @Test func floorDeadlineFiresWithoutASample() throws {
        // A sparse source: the change is seen at t = 1 (median of 100 and 150) but may go out only at
        // t = 3; at t = 5 the 100 leaves the window, and the floor lets that out at t = 6.
        // No sample arrives at any of those times: deadlines alone drive them.
        var script = EngineScript()
        script.add(.sample(beatsPerMinute: 100, contact: .detected), at: 0)
        script.add(.sample(beatsPerMinute: 150, contact: .detected), at: 1)
        script.add(.sample(beatsPerMinute: 150, contact: .detected), at: 7)
        let described = try script.described()
        #expect(described == [
            "0 start start 100 p10", "3 update changed 125 p5", "6 update changed 150 p5",
        ], "\(described)")
    }

    @Test(arguments: [
        // boundaries, then the step 128 → 131 at t = 10: a zone change shows even below the threshold
        ([Int](), [String]()),
        ([130], ["12 update changed 131 p5"]),
        ([129], ["12 update changed 131 p5"]),
        ([131], []), // on the boundary: within the hysteresis
        ([132], []),
    ])
    func zoneCrossingIsShown(boundaries: [Int], expected: [String]) throws {
        var policy = CadencePolicy()
        policy.zoneBoundaries = boundaries
        var script = EngineScript()
        script.samples(128, from: 0, to: 10)
        script.samples(131, from: 10, to: 30)
        #expect(try Array(script.described(policy).dropFirst()) == expected)
    }

    @Test func refreshComesBeforeEveryStaleDate() throws {
        var script = EngineScript()
        script.samples(100, from: 0, to: 330)
        let updates = try script.run()
        #expect(updates.map(EngineScript.describe) == [
            "0 start start 100 p10", "100 update refresh 100 p5", "200 update refresh 100 p5", "300 update refresh 100 p5",
        ])
        for (previous, next) in zip(updates, updates.dropFirst()) {
            #expect(next.timestamp < previous.staleDate)
        }
        #expect(updates.allSatisfy { $0.staleDate == $0.timestamp.adding(seconds: 120) })
    }
}
