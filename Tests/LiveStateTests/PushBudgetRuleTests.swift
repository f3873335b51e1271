import Evaluation
import Sensors
@testable import LiveState
import Testing

/// The push budget: priority 10 at most `urgentPerHour` per activity in any hour (start and end
/// always), a flapping strap damped, and `updatesPerHour` for sinks that bill per message.
@Suite struct PushBudgetRuleTests {
    /// 120 bpm at 1 Hz for 580 s of every `every` seconds, from 0 until `until`: a loss 10 s after each
    /// stretch's last sample, the strap back at the next stretch. Stopped at `until`.
    private func dropouts(every: Double, until: Double) -> EngineScript {
        var script = EngineScript()
        var from = 0.0
        while from < until {
            script.samples(120, from: from, to: min(from + every - 20, until))
            from += every
        }
        script.add(.stop(.stopped), at: until)
        return script
    }

    private func lostBackAndEnd(_ updates: [ActivityUpdate]) -> [String] {
        updates.filter { $0.reason.isImmediate && $0.event != .start }.map(EngineScript.describe)
    }

    @Test func urgentPushesStayWithinTheHourlyBudgetStartAndEndIncluded() throws {
        var policy = CadencePolicy()
        policy.urgentPerHour = 4
        policy.flapWindow = 0 // ten minutes apart is no flapping anyway; the budget alone
        let updates = try dropouts(every: 600, until: 5395).run(policy)
        // Start at 0 (1 of 4); one slot stays free for the end, so two more until the start leaves the
        // window at 3600, then the window slides.
        #expect(lostBackAndEnd(updates) == [
            "589 update sensor-lost - p10", "600 update sensor-back 120 p10",
            "1189 update sensor-lost - p5", "1200 update sensor-back 120 p5",
            "1789 update sensor-lost - p5", "1800 update sensor-back 120 p5",
            "2389 update sensor-lost - p5", "2400 update sensor-back 120 p5",
            "2989 update sensor-lost - p5", "3000 update sensor-back 120 p5",
            "3589 update sensor-lost - p5", "3600 update sensor-back 120 p10",
            "4189 update sensor-lost - p10", "4200 update sensor-back 120 p10",
            "4789 update sensor-lost - p5", "4800 update sensor-back 120 p5",
            "5389 update sensor-lost - p5",
            "5395 end end:stopped - p10",
        ])
        #expect(updates.filter(\.isDemoted).count == 12)
        let score = CadenceScore(samples: [], updates: updates, span: EngineScript.time(0)...EngineScript.time(5395))
        #expect(score.largestUrgentInAnHour == 4)
        #expect(score.demotions == 12)
    }

    @Test func eachActivityHasItsOwnBudget() throws {
        var policy = CadencePolicy()
        policy.urgentPerHour = 2 // a start and an end: every loss and return at priority 5
        policy.flapWindow = 0
        policy.activityTimeLimit = 1260
        policy.timeLimitMargin = 60 // a new activity every 20 minutes
        let updates = try dropouts(every: 600, until: 2395).run(policy)
        #expect(updates.filter { $0.event != .update }.map(EngineScript.describe) == [
            "0 start start 120 p10", "1200 end end:time-limit 120 p10", "1200 start start 120 p10", "2395 end end:stopped - p10",
        ])
        #expect(updates.filter { $0.event == .update && $0.reason.isImmediate }.allSatisfy { $0.isDemoted })
    }

    /// Lost at 109 (first loss: p10), back at 115 (6 s later: p5); lost again at 159, 44 s after that
    /// return (repeated: p5); back at 165 (p5), lost at 184, back at 190 (p5), each said when it
    /// happens. Steady until 399: the loss at 409 is 219 s after the return, and the return at 600 is
    /// 191 s after it: p10. Flapping costs priority, never truth.
    @Test func aFlappingStrapDoesNotFlapTheLockScreenNorHideItsNumber() throws {
        var script = EngineScript()
        script.samples(120, from: 0, to: 100)
        script.samples(120, from: 115, to: 150)
        script.samples(120, from: 165, to: 175)
        script.samples(120, from: 190, to: 400)
        script.samples(120, from: 600, to: 610)
        script.add(.stop(.stopped), at: 610)
        let updates = try script.run()
        #expect(updates.filter { $0.reason != .refresh }.map(EngineScript.describe) == [
            "0 start start 120 p10",
            "109 update sensor-lost - p10", "115 update sensor-back 120 p5",
            "159 update sensor-lost - p5", "165 update sensor-back 120 p5",
            "184 update sensor-lost - p5", "190 update sensor-back 120 p5",
            "409 update sensor-lost - p10", "600 update sensor-back 120 p10",
            "610 end end:stopped 120 p10",
        ])
        // Every loss 10 s after the last valid sample; every return with its first sample.
        let lastSamples = [99.0, 149, 174, 399]
        #expect(updates.filter { $0.reason == .sensorLost }.map { $0.timestamp.seconds(since: EngineScript.origin) }
            == lastSamples.map { $0 + 10 })
        #expect(updates.filter { $0.reason == .sensorBack }.map { $0.timestamp.seconds(since: EngineScript.origin) } == [115, 165, 190, 600])
    }

    @Test(arguments: [0.0, 120])
    func theFlapRuleCanBeTurnedOff(window: Double) throws {
        var script = EngineScript()
        script.samples(120, from: 0, to: 100)
        script.samples(120, from: 115, to: 150)
        script.samples(120, from: 165, to: 175)
        script.tick(at: 200)
        var policy = CadencePolicy()
        policy.flapWindow = window
        let described = try script.run(policy).filter { $0.reason != .refresh }.map(EngineScript.describe)
        // Without a window nothing is damped; the updates themselves are the same.
        let damped = window > 0 ? "p5" : "p10"
        #expect(described == [
            "0 start start 120 p10", "109 update sensor-lost - p10", "115 update sensor-back 120 \(damped)",
            "159 update sensor-lost - \(damped)", "165 update sensor-back 120 \(damped)", "184 update sensor-lost - \(damped)",
        ])
    }

    /// 100 and 130 bpm alternating every 10 s for an hour (a change worth sending every 10 s), then
    /// steady 100 for half an hour, then a 6 bpm step.
    private func restless() -> EngineScript {
        var script = EngineScript()
        for block in 0..<360 {
            let from = Double(block * 10)
            script.samples(block % 2 == 0 ? 100 : 130, from: from, to: from + 10)
        }
        script.samples(100, from: 3600, to: 5400)
        script.samples(106, from: 5400, to: 5460)
        return script
    }

    @Test func updatesPerHourHoldsTheAverageAndAQuietStretchSavesUp() throws {
        var policy = CadencePolicy()
        let free = try restless().run(policy)
        policy.updatesPerHour = 72 // a token every 50 s of live strap, at most 16 saved
        let budgeted = try restless().run(policy)
        func routine(_ updates: [ActivityUpdate], _ range: ClosedRange<Double>) -> Int {
            updates.filter { [.changed, .refresh].contains($0.reason) && range.contains($0.timestamp.seconds(since: EngineScript.origin)) }.count
        }
        #expect(routine(free, 0...3599) >= 300)
        // At most the two tokens it starts with plus an hour's refill, nearly all spent on the restless hour.
        #expect((70...74).contains(routine(budgeted, 0...3599)), "\(routine(budgeted, 0...3599))")
        #expect(routine(budgeted, 0...5460) <= 74 + 36)
        // The quiet half hour refilled the bucket: a 6 bpm step is shown at once (leaning toward the
        // 30 s median of 100).
        #expect(budgeted.last.map(EngineScript.describe) == "5400 update changed 104 p5")
    }

    /// A change needs a whole token of a bucket that starts with two and fills at N an hour of live
    /// strap (72: one every 50 s); a refresh may take it below empty, and a lost strap fills nothing.
    @Test(arguments: [
        // (tokens spent at 0, affordable at 0, seconds until affordable)
        (0, true, 0.0), (1, true, 0), (2, false, 50), (3, false, 100),
    ])
    func aChangeWaitsForAWholeToken(spent: Int, now: Bool, seconds: Double) throws {
        var budget = RoutineBudget(perHour: 72)
        let start = EngineScript.time(0)
        budget.startFilling(at: start)
        for _ in 0..<spent { budget.spend(at: start) }
        #expect(budget.affordsChange(at: start) == now)
        let when = try #require(budget.whenAffordable(after: start))
        #expect(abs(when.seconds(since: start) - seconds) < 0.001, "\(when.seconds(since: start))")
        #expect(budget.affordsChange(at: when))
    }

    @Test func theBucketFillsOnlyWhileTheStrapIsLiveAndOnlyToItsCapacity() {
        var budget = RoutineBudget(perHour: 72)
        budget.startFilling(at: EngineScript.time(0))
        #expect(budget.tokens(at: EngineScript.time(7200)) == RoutineBudget.capacity)
        budget.spend(at: EngineScript.time(7200))
        budget.spend(at: EngineScript.time(7200))
        budget.stopFilling(at: EngineScript.time(7200))
        #expect(budget.tokens(at: EngineScript.time(9000)) == RoutineBudget.capacity - 2)
        for _ in 0..<15 { budget.spend(at: EngineScript.time(9000)) }
        #expect(budget.whenAffordable(after: EngineScript.time(9000)) == nil) // until the strap is back
        budget.startFilling(at: EngineScript.time(9100))
        #expect(budget.whenAffordable(after: EngineScript.time(9100)).map { abs($0.seconds(since: EngineScript.time(9200))) < 0.001 } == true)
    }

    /// The budget's deadlines are the engine's own: waking it more often changes nothing.
    @Test func extraTicksChangeNothingUnderABudget() throws {
        var policy = CadencePolicy()
        policy.updatesPerHour = 40
        var ticked = restless()
        for tick in stride(from: 0.25, to: 5460, by: 0.5) { ticked.tick(at: tick) }
        #expect(try ticked.run(policy).map(EngineScript.describe) == restless().run(policy).map(EngineScript.describe))
    }

    @Test(arguments: [
        ("urgentPerHour", 1.0), ("urgentPerHour", 3601), ("updatesPerHour", 35), ("updatesPerHour", 3601),
        ("flapWindow", -1),
    ])
    func outOfRangeIsRefused(name: String, value: Double) throws {
        var policy = CadencePolicy()
        let parameter = try #require(CadencePolicy.parameters.first { $0.name == name })
        parameter.set(value, in: &policy)
        #expect(throws: LiveStateError.self) { try policy.validated() }
    }

    @Test func updatesPerHourMustCoverTheRefreshes() throws {
        var policy = CadencePolicy()
        policy.updatesPerHour = 36 // one refresh per 100 s (stale 120, lead 20)
        #expect(throws: Never.self) { try policy.validated() }
        policy.staleWindow = 60 // one per 40 s: 90 an hour
        #expect(throws: LiveStateError.invalidSetting(
            name: "updatesPerHour", value: "36.0",
            expected: "0 (no limit) or a count from 90 (the refreshes alone, one per staleWindow - refreshLead) to 3600, at most 2592000"
        )) { try policy.validated() }
    }
}
