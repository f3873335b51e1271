import Sensors
import LiveState
import Testing

/// How distance reaches the content state: counted from the activity's start, not while paused,
/// a lag of max(`distanceStep`, `distanceLagPercent` of the distance) alone worth a priority-5 update
/// under the floor, kept while the strap is lost.
@Suite struct DistanceRuleTests {
    /// `<seconds> <reason> <rate or -> <distance>`.
    private static func describe(_ update: ActivityUpdate) -> String {
        let seconds = Int(update.timestamp.seconds(since: EngineScript.origin))
        let rate = update.contentState.heartRate.map(String.init) ?? "-"
        return "\(seconds) \(update.reason.rawValue) \(rate) \(update.contentState.distanceMeters) p\(update.priority)"
    }

    /// A steady 100 bpm from t = 0, and `metres` covered each second from t = 1 to `until`.
    private static func steadyRun(meters: Double, until: Double = 60) -> EngineScript {
        var script = EngineScript()
        script.samples(100, from: 0, to: until)
        var time = 1.0
        while time < until {
            script.add(.distance(meters: meters), at: time + 0.5)
            time += 1
        }
        return script
    }

    @Test func distanceAloneSendsAnUpdateOnceThePhoneIsAStepBehind() throws {
        // 3 m/s: 250 m is passed at t = 84.5 (84 × 3 = 252 m), before the refresh at 100.
        let updates = try Self.steadyRun(meters: 3, until: 90).run().map(Self.describe)
        #expect(updates == ["0 start 100 0.0 p10", "84 changed 100 252.0 p5"])
    }

    /// Past 12.5 km the lag allowed is 2 % of the distance: at 20 km, 400 m.
    @Test func theLagAllowedGrowsWithTheDistance() throws {
        var script = EngineScript()
        script.samples(100, from: 0, to: 60)
        script.add(.distance(meters: 20_000), at: 1.5) // the first 20 km (shown after the 3 s floor)
        for time in stride(from: 10.5, to: 60, by: 1) { script.add(.distance(meters: 10), at: time) }
        let updates = try script.run().map(Self.describe)
        // 20,000 m shown at 3; 408 m behind (> 2 % of 20,400) at 50.5 after 41 steps of 10 m.
        #expect(updates == ["0 start 100 0.0 p10", "3 changed 100 20000.0 p5", "50 changed 100 20410.0 p5"])
    }

    @Test func theShareIsAParameter() throws {
        var policy = CadencePolicy()
        policy.distanceLagPercent = 0
        policy.distanceStep = 50
        let updates = try Self.steadyRun(meters: 10, until: 12).run(policy).map(Self.describe)
        #expect(updates == ["0 start 100 0.0 p10", "5 changed 100 50.0 p5", "10 changed 100 100.0 p5"])
    }

    @Test func stepIsAParameter() throws {
        var policy = CadencePolicy()
        policy.distanceStep = 25
        let updates = try Self.steadyRun(meters: 10, until: 8).run(policy).map(Self.describe)
        // 10 m a second from t = 1.5; 30 m at t = 3.5, but the 3 s floor holds it until t = 3.5 anyway.
        #expect(updates == ["0 start 100 0.0 p10", "3 changed 100 30.0 p5", "6 changed 100 60.0 p5"])
    }

    @Test func distanceBeforeTheStartIsNotCounted() throws {
        var script = EngineScript()
        script.add(.distance(meters: 500), at: 0)
        script.samples(100, from: 1, to: 5)
        script.add(.distance(meters: 7.25), at: 2)
        script.add(.stop(.stopped), at: 5)
        let updates = try script.run().map(Self.describe)
        #expect(updates == ["1 start 100 0.0 p10", "5 end:stopped 100 7.3 p10"]) // shown to 0.1 m
    }

    @Test func nothingIsCountedWhilePaused() throws {
        var script = EngineScript()
        script.samples(100, from: 0, to: 10)
        script.add(.distance(meters: 40), at: 1)
        script.add(.pause, at: 2)
        script.add(.distance(meters: 400), at: 3)
        script.add(.resume, at: 4)
        script.add(.distance(meters: 2), at: 5)
        script.add(.stop(.stopped), at: 10)
        let updates = try script.run().map(Self.describe)
        #expect(updates == ["0 start 100 0.0 p10", "2 paused 100 40.0 p5", "4 resumed 100 40.0 p5", "10 end:stopped 100 42.0 p10"])
    }

    @Test func nonsenseNeverCounts() throws {
        var script = EngineScript()
        script.samples(100, from: 0, to: 5)
        for bad in [-50, .nan, .infinity, 0] as [Double] { script.add(.distance(meters: bad), at: 1) }
        script.add(.stop(.stopped), at: 5)
        #expect(try script.run().map(Self.describe).last == "5 end:stopped 100 0.0 p10")
    }

    @Test func distanceGoesOnWhileTheStrapIsLost() throws {
        var script = EngineScript()
        script.samples(100, from: 0, to: 5)
        script.add(.disconnected, at: 5)
        script.add(.distance(meters: 300), at: 20)
        let updates = try script.run().map(Self.describe)
        #expect(updates == ["0 start 100 0.0 p10", "5 sensor-lost - 0.0 p10", "20 changed - 300.0 p5"])
    }

    @Test func aNewActivityStartsAtZero() throws {
        var policy = CadencePolicy()
        policy.activityTimeLimit = 100
        policy.timeLimitMargin = 10
        policy.staleWindow = 200
        policy.distanceStep = 1000
        var script = Self.steadyRun(meters: 5, until: 95)
        script.add(.stop(.stopped), at: 95)
        let updates = try script.run(policy).map(Self.describe)
        #expect(updates == ["0 start 100 0.0 p10", "90 end:time-limit 100 445.0 p10", "90 start 100 0.0 p10", "95 end:stopped 100 25.0 p10"])
    }
}
