import Forwarding
import Foundation
import Sensors
import LiveState
import SessionTestSupport
import TestSupport
import Testing
@testable import Session
@testable import SessionState

/// The session driver with a live (pushed) source on the real clock, in-process, writing to a
/// real file sink: the engine's deadlines fire from the timer alone, control reaches the activity,
/// and an ended source or a stop clears the state file.
@Suite(.timeLimit(.minutes(1))) struct LiveSessionTests {
    final class Harness {
        let directory: TemporaryDirectory
        let console = CapturedConsole()
        let session: LiveSession
        var linesPath: String { directory.path("updates.ndjson") }

        /// `silence`: seconds without a sample before sensor-lost (short, so the timer fires soon).
        init(silence: Double = 0.4, directory: TemporaryDirectory? = nil, clock: SessionClock = .real,
             policy configure: (inout CadencePolicy) -> Void = { _ in }, onStop: @escaping @Sendable () -> Void = {}) throws {
            self.directory = try directory ?? TemporaryDirectory()
            var policy = CadencePolicy()
            policy.silenceTimeout = silence
            configure(&policy)
            let sink = try LineSink.appending(toFile: self.directory.path("updates.ndjson"))
            let sinks = SinkSet(sinks: [sink], relay: SinkLogRelay(), console: console)
            let stateFile = try ActivityStateFile(directory: self.directory.path("state"), key: "strap-test")
            session = LiveSession(feed: WorkoutFeed(engine: try LiveStateEngine(policy: policy)), sinks: sinks, console: console,
                                  clock: clock, stateFile: stateFile, onStop: onStop)
        }

        var lines: [String] {
            guard let data = FileManager.default.contents(atPath: linesPath) else { return [] }
            return String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
        }

        var reasons: [String] { lines.map { LiveSessionTests.field("reason", $0) ?? "?" } }

        func waitFor(_ reason: String, within seconds: Double = 20) -> Bool {
            let deadline = Date(timeIntervalSinceNow: seconds)
            while !reasons.contains(reason) {
                guard Date() < deadline else { return false }
                usleep(10_000)
            }
            return true
        }

        static func sample(_ rate: UInt8, at time: Timestamp) -> SensorEvent {
            SensorEvent(time: time, kind: .notification(characteristic: .heartRateMeasurement, value: [0x06, rate]))
        }

        var stateFiles: [String] { (try? FileManager.default.contentsOfDirectory(atPath: directory.path("state/activities"))) ?? [] }
    }

    static func field(_ name: String, _ line: String) -> String? {
        let object = (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
        return object?[name].map { "\($0)" }
    }

    @Test func theTimerAloneDeclaresTheSensorLostAtItsDeadline() throws {
        let harness = try Harness()
        try harness.session.start()
        let last = try #require(SessionClock.real.now())
        harness.session.deliver(Harness.sample(120, at: last))
        #expect(harness.waitFor("sensor-lost"), "no event arrives: only the deadline timer can send it")
        let lost = try #require(harness.lines.last)
        // Ticked at the deadline itself (last sample + silence), not whenever the timer ran.
        #expect(Self.field("timestamp", lost) == UpdateLine.unixSecondsText(last.adding(seconds: 0.4)))
        #expect(harness.session.status().activity?.reason == .sensorLost)
        #expect(harness.stateFiles.contains("strap-test.json"), "a running activity is in the state file")
        harness.session.stop(signal: SIGTERM)
        #expect(harness.session.wait() == .stopped(signal: SIGTERM))
        #expect(harness.reasons == ["start", "sensor-lost", "end:stopped"])
        #expect(harness.stateFiles.isEmpty, "cleared, lock released")
    }

    @Test func controlReachesTheActivityAndStatusShowsIt() async throws {
        let harness = try Harness(silence: 60)
        try harness.session.start()
        harness.session.deliver(Harness.sample(130, at: try #require(SessionClock.real.now())))
        #expect(harness.waitFor("start"))
        guard case let .applied(paused) = await harness.session.apply(.pause) else {
            Issue.record("pause not applied")
            return
        }
        #expect(paused.phase == .paused && paused.reason == "paused" && paused.sequence == 2)
        guard case let .applied(labelled) = await harness.session.apply(.label("Interval 2/8"), to: paused.activityID) else {
            Issue.record("label not applied")
            return
        }
        #expect(labelled.intervalLabel == "Interval 2/8" && labelled.sequence == 3)
        guard case let .refused(reason) = await harness.session.apply(.label(String(repeating: "x", count: 5000))) else {
            Issue.record("a label over 4 KB must be refused")
            return
        }
        #expect(reason.contains("4096"), "\(reason)")
        #expect(await harness.session.apply(.resume, to: "someone-else-1") == .unknownActivity("someone-else-1"))
        let status = harness.session.status()
        #expect(status.running)
        #expect(status.activity?.reason == .label)
        #expect(status.activity?.contentState.pausedAt != nil)
        #expect(status.line.hasPrefix("running, activity \(status.activity!.activityID) #3 (label, 130 bpm, paused); priority 10: 1 sent, 0 demoted; sink file:"))
        harness.session.stop(signal: SIGINT)
        #expect(await harness.session.ended() == .stopped(signal: SIGINT))
        #expect(harness.reasons == ["start", "paused", "label", "end:stopped"])
        #expect(!harness.session.status().running)
        #expect(await harness.session.apply(.pause, to: paused.activityID) == .ended, "an ended activity is known as ended")
        #expect(await harness.session.apply(.end) == .ended)
    }

    @Test func theEndOfALiveSourceEndsTheActivity() async throws {
        let harness = try Harness(silence: 60)
        try harness.session.start()
        let start = try #require(SessionClock.real.now())
        harness.session.deliver(SensorEvent(time: start, kind: .connected))
        for second in 0..<3 { harness.session.deliver(Harness.sample(100 + UInt8(second) * 20, at: start.adding(seconds: Double(second) * 0.01))) }
        harness.session.endOfInput()
        #expect(await harness.session.ended() == .sourceEnded)
        #expect(harness.reasons.first == "start" && harness.reasons.last == "end:stopped")
        #expect(harness.stateFiles.isEmpty)
    }

    /// A signal lets the source go first; a source that ends at once (its links stopped) must not
    /// turn the signal's stop into a source that ran out: the run exits 143, not 0.
    @Test func aSourceEndingBecauseOfTheSignalStillEndsAsStopped() async throws {
        final class SessionBox: @unchecked Sendable { var session: LiveSession? }
        let box = SessionBox()
        let harness = try Harness(silence: 60, onStop: { box.session?.endOfInput() })
        box.session = harness.session
        try harness.session.start()
        let start = try #require(SessionClock.real.now())
        harness.session.deliver(SensorEvent(time: start, kind: .connected))
        harness.session.deliver(Harness.sample(120, at: start))
        harness.session.stop(signal: SIGTERM)
        #expect(await harness.session.ended() == .stopped(signal: SIGTERM))
        #expect(harness.reasons.first == "start" && harness.reasons.last == "end:stopped")
    }

    /// A killed run's state: one activity at sequence 5, sent to the file sink and a server.
    static func leaveActivityBehind(in directory: TemporaryDirectory) throws {
        var ledger = ActivityLedger()
        var update = try SampleUpdates.fromEngine()[0]
        update.sequence = 5
        ledger.record(EncodedUpdate(update), sinks: ["file:\(directory.path("updates.ndjson"))", "https://gone.example"])
        let earlier = try ActivityStateFile(directory: directory.path("state"), key: "strap-test")
        try earlier.save(ledger)
        earlier.release()
    }

    @Test func eventsFromASourceAttachedBeforeStartWaitForTheRecovery() throws {
        let directory = try TemporaryDirectory()
        try Self.leaveActivityBehind(in: directory)
        let harness = try Harness(silence: 60, directory: directory)
        harness.session.deliver(Harness.sample(110, at: try #require(SessionClock.real.now())))
        try harness.session.start()
        harness.session.stop(signal: SIGTERM)
        #expect(harness.session.wait() == .stopped(signal: SIGTERM))
        #expect(harness.reasons == ["end:recovered", "start", "end:stopped"])
    }

    @Test func aStopBeforeStartStillRecoversThenStops() throws {
        let directory = try TemporaryDirectory()
        try Self.leaveActivityBehind(in: directory)
        let harness = try Harness(directory: directory)
        harness.session.stop(signal: SIGTERM)
        try harness.session.start()
        #expect(harness.session.wait() == .stopped(signal: SIGTERM))
        #expect(harness.reasons == ["end:recovered"])
        #expect(harness.lines.first.flatMap { Self.field("sequence", $0) } == "6")
        #expect(harness.console.log.contains("also went to https://gone.example, which this run does not have: its end stays owed"))
        let kept = try ActivityLedger(decoding: Array(try Data(contentsOf: URL(fileURLWithPath: harness.directory.path("state/activities/strap-test.json")))))
        #expect(kept.entries.map(\.sinks) == [["https://gone.example"]], "owed to the sink this run lacks, not to the file that has it")
        #expect(kept.entries.first?.lastUpdate.sequence == 6)
    }
}

extension LiveSession {
    /// `wait()` without holding a thread of Swift's cooperative pool (a blocked one there starves async work).
    func ended() async -> Ending {
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(returning: self.wait()) }
        }
    }
}
