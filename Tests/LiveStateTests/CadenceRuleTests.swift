import Sensors
import LiveState
import Testing

/// The cadence rules, each driven with an injected clock (EngineScript gives every time).
@Suite struct CadenceRuleTests {
    @Test(arguments: [
        // A steady 100 bpm, then a step at t = 10 s. A sample more than 5 bpm from the number shown
        // is shown at once, moved toward the trend (up) and the 30 s median (down): 106 → 106 + 2.7
        // − 3; 160 → 160 + 27.3 − 30. A drop of 7 or more between two samples waits (below).
        (105, [String]()),
        (106, ["10 update changed 106 p5"]),
        (95, []),
        (94, ["10 update changed 94 p5"]),
        (160, ["10 update changed 157 p5"]),
    ])
    func thresholdDecidesWhetherAMoveIsShown(newRate: Int, expected: [String]) throws {
        var script = EngineScript()
        script.samples(100, from: 0, to: 10)
        script.samples(newRate, from: 10, to: 40)
        #expect(try script.described() == ["0 start start 100 p10"] + expected)
    }

    /// A strap missing beats reads low for a few seconds and recovers: a sudden drop is shown only
    /// once it has lasted the patience (8 s), so the dip below costs nothing and the real drop one
    /// update, 8 s late.
    /// (The number shown leans toward the 30 s median: 85 for a fresh drop to 88, 96 for the return.)
    @Test(arguments: [
        (4.0, ["0 start start 100 p10"]),
        (30.0, ["0 start start 100 p10", "18 update changed 85 p5", "40 update changed 96 p5"]),
    ] as [(Double, [String])])
    func aSuddenDropIsWaitedOut(lasting: Double, expected: [String]) throws {
        var script = EngineScript()
        script.samples(100, from: 0, to: 10)
        script.samples(88, from: 10, to: 10 + lasting)
        script.samples(100, from: 10 + lasting, to: 60)
        #expect(try script.described() == expected)
    }

    @Test(arguments: [
        // floor, when the updates go: 100 → 120 from t = 10, → 140 from t = 12
        (3.0, ["0 start", "10 changed", "13 changed"]),
        (10.0, ["0 start", "10 changed", "20 changed"]),
        (0.0, ["0 start", "10 changed", "12 changed"]),
    ])
    func floorHoldsRoutineUpdatesApart(floor: Double, expected: [String]) throws {
        var policy = CadencePolicy()
        policy.minimumInterval = floor
        var script = EngineScript()
        script.samples(100, from: 0, to: 10)
        script.samples(120, from: 10, to: 12)
        script.samples(140, from: 12, to: 30)
        #expect(try script.run(policy).map { "\(Int($0.timestamp.seconds(since: EngineScript.origin))) \($0.reason.rawValue)" } == expected)
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
        // A sparse source: the jump at t = 1 may go out only at t = 3, when no sample arrives: the
        // floor's deadline alone drives it. (Two samples make a steep trend: 4 above the newest.)
        var script = EngineScript()
        script.add(.sample(beatsPerMinute: 100, contact: .detected), at: 0)
        script.add(.sample(beatsPerMinute: 150, contact: .detected), at: 1)
        script.add(.sample(beatsPerMinute: 150, contact: .detected), at: 7)
        let described = try script.described()
        #expect(described == ["0 start start 100 p10", "3 update changed 154 p5"], "\(described)")
    }

    @Test(arguments: [
        // boundaries, then the step 128 → 131 at t = 10: a zone change shows even below the threshold
        ([Int](), [String]()),
        ([130], ["10 update changed 131 p5"]),
        ([129], ["10 update changed 131 p5"]),
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
