import Sensors
import LiveState
import Testing

/// `--heart-rate-from machine`: a treadmill's own heart rate feeds the activity while no strap is
/// connected; the strap wins whenever its link is up; off by default.
@Suite struct MachineHeartRateTests {
    private static let treadmillData = BluetoothUUID(assigned: 0x2ACD)

    /// 0x2ACD flags 0x0004 (0x0104 with a heart rate, bit 8): speed 10.8 km/h (0x0438), total distance, heart rate (bit 8).
    private func treadmill(_ seconds: Double, meters: Int, bpm: UInt8?) -> SensorEvent {
        var value: [UInt8] = [0x04, bpm == nil ? 0x00 : 0x01, 0x38, 0x04]
        value += (0..<3).map { UInt8(truncatingIfNeeded: meters >> (8 * $0)) }
        if let bpm { value.append(bpm) }
        return SensorEvent(time: EngineScript.time(seconds), kind: .notification(characteristic: Self.treadmillData, value: value), sensor: .distance)
    }

    private func strap(_ seconds: Double, _ kind: SensorEvent.Kind) -> SensorEvent {
        SensorEvent(time: EngineScript.time(seconds), kind: kind)
    }

    private func strapSample(_ seconds: Double, bpm: UInt8) -> SensorEvent {
        strap(seconds, .notification(characteristic: .heartRateMeasurement, value: [0x06, bpm]))
    }

    /// `<seconds> <reason> <rate or -> <distance>`.
    private func describe(_ updates: [ActivityUpdate]) -> [String] {
        updates.map { update in
            let seconds = Int(update.timestamp.seconds(since: EngineScript.origin))
            return "\(seconds) \(update.reason.rawValue) \(update.contentState.heartRate.map(String.init) ?? "-") \(update.contentState.distanceMeters)"
        }
    }

    @Test func offByDefaultTheMachinesRateIsIgnored() throws {
        var feed = WorkoutFeed(engine: try LiveStateEngine())
        var updates: [ActivityUpdate] = []
        for second in 0..<5 { updates += feed.handle(treadmill(Double(second), meters: 3 * second, bpm: 120)).updates }
        #expect(updates.isEmpty)
        #expect(feed.heartRateSource == .strap && !feed.heartRateFromMachineNow)
    }

    @Test func withoutAStrapTheMachinesRateStartsAndFeedsTheActivity() throws {
        var feed = WorkoutFeed(engine: try LiveStateEngine(), distance: DistanceSettings(heartRateFrom: .machine))
        var updates: [ActivityUpdate] = []
        updates += feed.handle(treadmill(0, meters: 0, bpm: nil)).updates   // no rate: nothing starts
        updates += feed.handle(treadmill(1, meters: 3, bpm: 120)).updates   // starts; its 3 m came before
        updates += feed.handle(treadmill(2, meters: 6, bpm: 121)).updates
        #expect(feed.heartRateFromMachineNow)
        updates += feed.handle(treadmill(3, meters: 9, bpm: 150)).updates
        updates += feed.finish(at: EngineScript.time(4))
        // The end shows the machine's rate (leaning where it heads, as for a strap) and its 6 m since the start.
        #expect(describe(updates) == ["1 start 120 0.0", "4 end:stopped 154 6.0"])
    }

    @Test func theStrapWinsWhileItsLinkIsUp() throws {
        var feed = WorkoutFeed(engine: try LiveStateEngine(), distance: DistanceSettings(heartRateFrom: .machine))
        var updates: [ActivityUpdate] = []
        updates += feed.handle(strap(0, .connected)).updates
        updates += feed.handle(strapSample(0.5, bpm: 100)).updates
        updates += feed.handle(treadmill(1, meters: 0, bpm: 160)).updates   // ignored: the strap is connected
        updates += feed.handle(strapSample(2, bpm: 101)).updates
        #expect(!feed.heartRateFromMachineNow)
        // The strap goes: lost; the machine's rate brings the activity back.
        updates += feed.handle(strap(3, .disconnected(reason: "link loss"))).updates
        updates += feed.handle(treadmill(4, meters: 3, bpm: 140)).updates
        #expect(feed.heartRateFromMachineNow)
        // The strap returns: from its connected on, the machine's rate no longer counts.
        updates += feed.handle(strap(5, .connected)).updates
        updates += feed.handle(treadmill(6, meters: 6, bpm: 170)).updates
        #expect(!feed.heartRateFromMachineNow)
        updates += feed.finish(at: EngineScript.time(7))
        #expect(describe(updates) == ["0 start 100 0.0", "3 sensor-lost - 0.0", "4 sensor-back 140 3.0", "7 end:stopped 140 6.0"])
    }

    @Test func theMachinesLinkDroppingWhileItsRateIsShownIsALoss() throws {
        var feed = WorkoutFeed(engine: try LiveStateEngine(), distance: DistanceSettings(heartRateFrom: .machine))
        var updates: [ActivityUpdate] = []
        updates += feed.handle(treadmill(0, meters: 0, bpm: 120)).updates
        updates += feed.handle(SensorEvent(time: EngineScript.time(1), kind: .disconnected(reason: "link loss"), sensor: .distance)).updates
        #expect(!feed.heartRateFromMachineNow)
        #expect(describe(updates) == ["0 start 120 0.0", "1 sensor-lost - 0.0"])
    }

    @Test func aTracesHeaderDecidesTheSource() throws {
        let feed = WorkoutFeed(engine: try LiveStateEngine()).heartRate(from: .machine)
        #expect(feed.heartRateSource == .machine)
    }

    @Test func whatTheMachineOffersIsKept() throws {
        var feed = WorkoutFeed(engine: try LiveStateEngine())
        let read = SensorEvent(time: EngineScript.time(0), kind: .notification(characteristic: BluetoothUUID(assigned: 0x2ACC),
                                                                               value: [0x04, 0x04, 0, 0, 0, 0, 0, 0]), sensor: .distance)
        #expect(feed.handle(read).updates.isEmpty)
        #expect(feed.distanceSensorOffers == "total distance, heart rate")
    }
}
