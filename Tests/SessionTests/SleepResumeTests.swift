import Foundation
import LiveState
import Sensors
import Testing
@testable import Session

/// A live session across the machine's sleep, in-process on a real clock that a test can move
/// ahead while the timers' kernel clock does not see it (what a suspend looks like to a timer on
/// CLOCK_MONOTONIC): deadlines that passed during the sleep run right after resume, each at its own
/// time and with its own end cause, not the time slept later.
@Suite(.timeLimit(.minutes(1))) struct SleepResumeTests {
    typealias Harness = LiveSessionTests.Harness

    /// How soon after resume a passed deadline must have run: far below the deadlines' own
    /// lengths (minutes), so a timer that waits out its old delay fails the check.
    static let promptly: Double = 5

    @Test func aGiveUpThatPassedDuringSleepEndsTheActivityAtResume() throws {
        let clock = SessionClock.unsharedReal()
        let harness = try Harness(clock: clock) { $0.giveUpInterval = 300 }
        try harness.session.start()
        let last = try #require(clock.now())
        harness.session.deliver(Harness.sample(120, at: last))
        #expect(harness.waitFor("sensor-lost"))
        clock.simulateSleep(seconds: 3600)
        harness.session.resumedFromSleep()
        #expect(harness.waitFor("end:sensor-gone", within: Self.promptly), "the give-up passed while asleep: \(harness.reasons)")
        let end = try #require(harness.lines.last)
        #expect(LiveSessionTests.field("timestamp", end) == UpdateLine.unixSecondsText(last.adding(seconds: 300)),
                "ended at the give-up time, not at resume")
        harness.session.stop(signal: SIGTERM)
        #expect(harness.session.wait() == .stopped(signal: SIGTERM))
        // The refreshes due while asleep run too, each at its own time, as a replay of the same events would.
        #expect(harness.reasons.first == "start" && harness.reasons.dropFirst().first == "sensor-lost")
        #expect(harness.reasons.dropFirst(2).dropLast().allSatisfy { $0 == "refresh" } && harness.reasons.last == "end:sensor-gone")
    }

    @Test func aTimeLimitThatPassedDuringSleepEndsTheActivityAtItsLimit() throws {
        let clock = SessionClock.unsharedReal()
        let harness = try Harness(silence: 60, clock: clock) {
            $0.activityTimeLimit = 600
            $0.timeLimitMargin = 0
            $0.giveUpInterval = 7200
            $0.continueAfterTimeLimit = false
        }
        try harness.session.start()
        let start = try #require(clock.now())
        harness.session.deliver(Harness.sample(120, at: start))
        #expect(harness.waitFor("start"))
        clock.simulateSleep(seconds: 3600)
        harness.session.resumedFromSleep()
        #expect(harness.waitFor("end:time-limit", within: Self.promptly), "the time limit passed while asleep: \(harness.reasons)")
        let end = try #require(harness.lines.last)
        #expect(LiveSessionTests.field("timestamp", end) == UpdateLine.unixSecondsText(start.adding(seconds: 600)))
        harness.session.stop(signal: SIGTERM)
        _ = harness.session.wait()
        #expect(harness.reasons.contains("sensor-lost"), "the silence (60 s) also passed during the sleep, before the limit")
        #expect(harness.reasons.last == "end:time-limit")
    }

    @Test func beforeSleepTheLinksDisconnectShowsTheSensorLostAndTheSinksSettle() throws {
        let harness = try Harness(silence: 60)
        try harness.session.start()
        let now = try #require(SessionClock.real.now())
        harness.session.deliver(Harness.sample(120, at: now))
        harness.session.deliver(SensorEvent(time: now.adding(seconds: 0.1), kind: .disconnected(reason: SensorEvent.Kind.systemSleep)))
        let settled = DispatchSemaphore(value: 0)
        harness.session.settleBeforeSleep(within: 1) { settled.signal() }
        #expect(settled.wait(timeout: .now() + 5) == .success)
        #expect(harness.reasons == ["start", "sensor-lost"], "the sleep's disconnect is an ordinary loss, out before sleep")
        #expect(LiveSessionTests.field("priority", harness.lines.last ?? "") == "10")
        harness.session.stop(signal: SIGTERM)
        _ = harness.session.wait()
    }
}
