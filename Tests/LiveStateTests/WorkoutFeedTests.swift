import Sensors
import LiveState
import TestSupport
import Testing

@Suite struct StrapFeedTests {
    private static func notify(_ hex: [UInt8], at seconds: Double) -> SensorEvent {
        SensorEvent(time: EngineScript.time(seconds), kind: .notification(characteristic: .heartRateMeasurement, value: hex))
    }

    @Test func malformedValueIsDroppedWithAReasonAndTheRestGoesOn() throws {
        var feed = WorkoutFeed(engine: try LiveStateEngine())
        let started = feed.handle(Self.notify([0x06, 0x70], at: 0))
        #expect(started.updates.map(EngineScript.describe) == ["0 start start 112 p10"])
        #expect(started.measurement?.beatsPerMinute == 112)
        let malformed = feed.handle(Self.notify([0x01, 0x70], at: 1)) // 16-bit rate promised, 1 byte present
        #expect(malformed.warning == "dropped malformed 0x2A37 value: flags promise a 16-bit rate but 1 byte follows")
        #expect(malformed.updates.isEmpty && malformed.measurement == nil)
        let next = feed.handle(Self.notify([0x06, 0x7A], at: 20))
        // The malformed value did not count as a sample: silence since t = 0 lost the sensor at t = 10.
        // Back 10 s after the loss: a quick return, priority 5 (FlapRuleTests).
        #expect(next.updates.map(EngineScript.describe) == ["10 update sensor-lost - p10", "20 update sensor-back 122 p5"])
    }

    /// The links' own disconnect when the bridge stops: the end follows, not a lost sensor (a replay of
    /// a recorded run then decides what the run did).
    @Test func theBridgesOwnDisconnectIsNoLoss() throws {
        var feed = WorkoutFeed(engine: try LiveStateEngine())
        _ = feed.handle(Self.notify([0x06, 0x70], at: 0))
        for sensor in SensorRole.allCases {
            let stopped = feed.handle(SensorEvent(time: EngineScript.time(1), kind: .disconnected(reason: SensorEvent.Kind.stoppedByBridge), sensor: sensor))
            #expect(stopped.updates.isEmpty && stopped.warning == nil)
        }
        #expect(feed.finish(at: EngineScript.time(2)).map(EngineScript.describe) == ["2 end end:stopped 112 p10"])
    }

    @Test func connectionEventsReachTheEngineAndOthersDoNot() throws {
        var feed = WorkoutFeed(engine: try LiveStateEngine())
        _ = feed.handle(Self.notify([0x06, 0x70], at: 0))
        let others: [SensorEvent.Kind] = [
            .battery(try BatteryLevel(parsing: [80])), .bodySensorLocation(BodySensorLocation(code: 1)), .note("hello"),
            .notification(characteristic: .batteryLevel, value: [80]),
        ]
        for kind in others {
            #expect(feed.handle(SensorEvent(time: EngineScript.time(1), kind: kind)).updates.isEmpty)
        }
        let lost = feed.handle(SensorEvent(time: EngineScript.time(2), kind: .disconnected(reason: "link loss")))
        #expect(lost.updates.map(EngineScript.describe) == ["2 update sensor-lost - p10"])
        #expect(feed.finish(at: EngineScript.time(3)).map(EngineScript.describe) == ["3 end end:stopped - p10"])
    }

    /// A driver that wakes at every deadline and one that never ticks see the same updates at the same
    /// times: the engine runs overdue deadlines at their own time. This is what makes replay pace-free.
    @Test func tickingAtDeadlinesChangesNothing() throws {
        let events = Self.randomWorkout()
        var lazy = WorkoutFeed(engine: try LiveStateEngine())
        var eager = WorkoutFeed(engine: try LiveStateEngine())
        var lazyUpdates: [ActivityUpdate] = []
        var eagerUpdates: [ActivityUpdate] = []
        var ticks = 0
        for event in events {
            lazyUpdates += lazy.handle(event).updates
            while let deadline = eager.nextDeadline, deadline < event.time { // as TraceDrive does
                eagerUpdates += eager.tick(at: deadline)
                ticks += 1
            }
            eagerUpdates += eager.handle(event).updates
        }
        #expect(ticks > 5) // deadlines between samples: gaps, refreshes
        #expect(lazyUpdates.count > 50)
        for other in [eagerUpdates] {
            let firstDifference = zip(lazyUpdates, other).first { $0 != $1 }
            #expect(lazyUpdates.count == other.count)
            #expect(firstDifference == nil, "\(firstDifference.map { [EngineScript.describe($0), EngineScript.describe($1)] } ?? [])")
        }
        #expect(Set(lazyUpdates.map(\.reason)).isSuperset(of: [.changed, .sensorLost, .sensorBack, .refresh]))
    }

    /// 3,000 samples, mostly 1 s apart, with gaps of up to 30 s, lost contact and dropped links.
    private static func randomWorkout() -> [SensorEvent] {
        var generator = SplitMix64(seed: 7)
        var events: [SensorEvent] = []
        var seconds = 0.0
        var rate = 120
        for _ in 0..<3000 {
            seconds += generator.next() % 300 == 0 ? Double(generator.next() % 30) : 1
            rate = max(60, min(190, rate + Int(generator.next() % 5) - 2))
            let contact: UInt8 = generator.next() % 500 == 0 ? 0x04 : 0x06
            events.append(Self.notify([contact, UInt8(rate)], at: seconds))
            if generator.next() % 400 == 0 {
                events.append(SensorEvent(time: EngineScript.time(seconds + 0.5), kind: .disconnected(reason: nil)))
            }
        }
        return events
    }

    /// A source that reports silence itself (a link's watchdog: `disconnected` 10 s after the last
    /// value) lets a live session's timer leave the silence timeout out: the same updates as a driver
    /// that wakes for every deadline, and every loss on time. Without the source's report the loss
    /// would wait for the strap to come back.
    @Test func aSourceThatReportsSilenceLeavesTheSilenceTimeoutToIt() throws {
        let workout = Self.randomWorkout()
        var reported: [SensorEvent] = []
        var lastValue: Timestamp?
        for event in workout {
            if let last = lastValue, event.time.microsecondsSinceUnixEpoch - last.microsecondsSinceUnixEpoch >= 10_000_000 {
                reported.append(SensorEvent(time: last.adding(seconds: 10), kind: .disconnected(reason: "silence")))
                lastValue = nil
            }
            if case .notification = event.kind { lastValue = event.time }
            reported.append(event)
        }
        var eager = WorkoutFeed(engine: try LiveStateEngine())
        var eagerUpdates: [ActivityUpdate] = []
        for event in reported {
            while let deadline = eager.nextDeadline, deadline < event.time { eagerUpdates += eager.tick(at: deadline) }
            eagerUpdates += eager.handle(event).updates
        }
        let (updates, lateness) = try Self.besideSilence(reported)
        let firstDifference = zip(eagerUpdates, updates).first { $0 != $1 }
        #expect(eagerUpdates.count == updates.count)
        #expect(firstDifference == nil, "\(firstDifference.map { [EngineScript.describe($0), EngineScript.describe($1)] } ?? [])")
        #expect(updates.contains { $0.reason == .sensorLost })
        #expect(lateness == 0)
        #expect(try Self.besideSilence(workout).lateness > 5_000_000) // nobody reports the silence
    }

    /// Drives a feed as a live session whose source reports silence: the updates, and how long after
    /// its own time the latest loss came out (microseconds).
    private static func besideSilence(_ events: [SensorEvent]) throws -> (updates: [ActivityUpdate], lateness: Int64) {
        var feed = WorkoutFeed(engine: try LiveStateEngine())
        var updates: [ActivityUpdate] = []
        var lateness: Int64 = 0
        func note(_ produced: [ActivityUpdate], at time: Timestamp) {
            for update in produced where update.reason == .sensorLost {
                lateness = max(lateness, time.microsecondsSinceUnixEpoch - update.timestamp.microsecondsSinceUnixEpoch)
            }
            updates += produced
        }
        for event in events {
            while let wake = feed.nextWakeDeadlineBesideSilence, wake < event.time {
                while let deadline = feed.nextDeadline, deadline <= wake { note(feed.tick(at: deadline), at: wake) }
            }
            note(feed.handle(event).updates, at: event.time)
        }
        return (updates, lateness)
    }

    /// A steady strap wakes a live run for nothing between samples: no deadline falls there (the
    /// number shown changes only with a sample), and silence is the next wake-up.
    @Test func aSteadyStrapWakesNothingBetweenSamples() throws {
        var feed = WorkoutFeed(engine: try LiveStateEngine())
        var deadlinesBetweenSamples = 0
        for second in 0..<90 {
            let time = EngineScript.time(Double(second))
            if let deadline = feed.nextDeadline, deadline < time { deadlinesBetweenSamples += 1 }
            _ = feed.handle(Self.notify([0x06, UInt8(120 + second % 3)], at: Double(second)))
        }
        #expect(deadlinesBetweenSamples == 0)
        // Silence: the next wake-up is the loss, 10 s after the last sample, unless the source says it.
        #expect(feed.nextDeadline == EngineScript.time(99))
        #expect(feed.nextWakeDeadlineBesideSilence.map { $0 > EngineScript.time(99) } ?? true)
    }
}
