import Foundation
import Sensors
import LiveState
import Testing

/// Start, pause/resume, label, end, and the 8-hour limit.
@Suite struct LifecycleRuleTests {
    @Test func startsAtTheFirstValidSampleWithTheTimerRange() throws {
        var script = EngineScript()
        script.add(.connected, at: 0)
        script.add(.sample(beatsPerMinute: 0, contact: .notDetected), at: 1)
        script.add(.sample(beatsPerMinute: 90, contact: .detected), at: 2)
        let updates = try script.run(settings: ActivitySettings(workoutName: "Tempo", intervalLabel: "Warm-up"))
        #expect(updates.map(EngineScript.describe) == ["2 start start 90 p10"])
        let start = try #require(updates.first)
        #expect(start.activityID == "hrbridge-20240101T060002Z-1")
        #expect(start.sequence == 1)
        #expect(start.attributes.workoutName == "Tempo")
        #expect(start.contentState.intervalLabel == "Warm-up")
        #expect(start.contentState.timerRange == EngineScript.time(2).date...EngineScript.time(2 + 8 * 3600).date)
        #expect(start.contentState.pausedAt == nil)
        #expect(start.contentState.distanceMeters == 0)
    }

    @Test func pauseAndResumeMoveTheTimer() throws {
        var script = EngineScript()
        script.samples(100, from: 0, to: 200)
        script.add(.pause, at: 30)
        script.add(.pause, at: 40) // already paused: nothing to say
        script.add(.resume, at: 90)
        script.add(.resume, at: 95)
        let updates = try script.run()
        #expect(updates.map(EngineScript.describe) == [
            "0 start start 100 p10", "30 update paused 100 p5", "90 update resumed 100 p5", "190 update refresh 100 p5",
        ])
        #expect(updates[1].contentState.pausedAt == EngineScript.time(30).date)
        #expect(updates[1].contentState.timerRange.lowerBound == EngineScript.time(0).date)
        #expect(updates[2].contentState.pausedAt == nil)
        #expect(updates[2].contentState.timerRange.lowerBound == EngineScript.time(60).date)
        #expect(updates[2].contentState.timerRange.upperBound == EngineScript.time(8 * 3600).date)
    }

    @Test func labelChangeIsSentAndTooLongALabelIsRefused() throws {
        var engine = try LiveStateEngine()
        _ = try engine.receive(.sample(beatsPerMinute: 100, contact: .detected), at: EngineScript.time(0))
        let labelled = try engine.receive(.label("Interval 2/8"), at: EngineScript.time(1))
        #expect(labelled.map(EngineScript.describe) == ["1 update label 100 p5"])
        #expect(labelled.first?.contentState.intervalLabel == "Interval 2/8")
        #expect(try engine.receive(.label("Interval 2/8"), at: EngineScript.time(2)).isEmpty)
        #expect(throws: LiveStateError.self) {
            _ = try engine.receive(.label(String(repeating: "x", count: 5000)), at: EngineScript.time(3))
        }
        // The refused label changed nothing: the next update still carries the old one.
        let next = try engine.receive(.pause, at: EngineScript.time(4))
        #expect(next.first?.contentState.intervalLabel == "Interval 2/8")
    }

    @Test func tooLongAWorkoutNameIsRefusedUpFront() {
        #expect(throws: LiveStateError.self) {
            _ = try LiveStateEngine(settings: ActivitySettings(workoutName: String(repeating: "n", count: 4100)))
        }
    }

    /// A trace that broke off ends as a stop does, with its own reason.
    @Test(arguments: [EndCause.stopped, .traceError])
    func stopEndsWithTheFinalStateAndNothingFollows(cause: EndCause) throws {
        var script = EngineScript()
        script.samples(150, from: 0, to: 50)
        script.add(.stop(cause), at: 49.5)
        script.samples(150, from: 50, to: 300)
        let updates = try script.run()
        #expect(updates.map(EngineScript.describe) == ["0 start start 150 p10", "49.5 end end:\(cause.rawValue) 150 p10"])
        let end = updates[1]
        #expect(end.dismissalDate == EngineScript.time(49.5 + 1800))
        #expect(end.contentState.pausedAt == EngineScript.time(49.5).date) // the timer shows the workout's length
        #expect(end.sequence == 2)
    }

    @Test(arguments: [true, false])
    func eightHourLimitEndsBeforeActivityKitDoes(continues: Bool) throws {
        var policy = CadencePolicy()
        policy.continueAfterTimeLimit = continues
        policy.changeThreshold = 50 // keep the table to the lifecycle
        var script = EngineScript()
        script.samples(100, from: 0, to: 8 * 3600 + 30, every: 5)
        let updates = try script.run(policy).filter { $0.reason != .refresh }
        let limit = String(8 * 3600 - 60)
        #expect(updates.map(EngineScript.describe) == ["0 start start 100 p10", "\(limit) end end:time-limit 100 p10"]
            + (continues ? ["\(limit) start start 100 p10"] : []))
        if continues {
            #expect(updates[2].activityID == "hrbridge-20240101T135900Z-2")
            #expect(updates[2].contentState.timerRange.upperBound == EngineScript.time(2 * 8 * 3600 - 60).date)
        }
    }

    @Test func prioritiesAreTenOnlyForStartLossBackAndEnd() throws {
        var script = EngineScript()
        script.samples(100, from: 0, to: 20)
        script.samples(130, from: 20, to: 40)
        script.add(.pause, at: 25)
        script.add(.resume, at: 26)
        script.add(.label("x"), at: 27)
        script.samples(130, from: 60, to: 200)
        script.add(.stop(.stopped), at: 200)
        var byReasonAlone = CadencePolicy()
        byReasonAlone.flapWindow = 0 // the return 20 s after the loss would be damped (FlapRuleTests)
        let updates = try script.run(byReasonAlone)
        #expect(Set(updates.map(\.reason.rawValue)) == [
            "start", "changed", "paused", "resumed", "label", "sensor-lost", "sensor-back", "refresh", "end:stopped",
        ])
        for update in updates {
            let immediate = ["start", "sensor-lost", "sensor-back", "end:stopped"].contains(update.reason.rawValue)
            #expect(update.priority == (immediate ? 10 : 5), "\(update.reason)")
        }
        #expect(updates.map(\.sequence) == Array(1...updates.count))
    }

    @Test func anInputFromThePastCountsAsNow() throws {
        // A live clock can step back (NTP); the engine never goes back in time with it.
        var engine = try LiveStateEngine()
        _ = try engine.receive(.sample(beatsPerMinute: 100, contact: .detected), at: EngineScript.time(10))
        let late = try engine.receive(.disconnected, at: EngineScript.time(3))
        #expect(late.map(EngineScript.describe) == ["10 update sensor-lost - p10"])
    }

    @Test func labelSetBeforeTheStartIsCarriedByIt() throws {
        var script = EngineScript()
        script.add(.label("Warm-up"), at: 0)
        script.add(.pause, at: 0.5) // nothing to pause yet
        script.add(.sample(beatsPerMinute: 100, contact: .detected), at: 1)
        let updates = try script.run()
        #expect(updates.map(EngineScript.describe) == ["1 start start 100 p10"])
        #expect(updates.first?.contentState.intervalLabel == "Warm-up")
        #expect(updates.first?.contentState.pausedAt == nil)
    }
}
