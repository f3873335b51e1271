import LiveState
import Sensors
import Testing

/// The feed's tally, what `/metrics` reads: each notification counted for its kind, malformed ones
/// also as rejected, links up and back, the newest valid sample's time.
@Suite struct SensorTallyTests {
    private func event(_ seconds: Double, _ kind: SensorEvent.Kind, _ role: SensorRole = .strap) -> SensorEvent {
        SensorEvent(time: EngineScript.time(seconds), kind: kind, sensor: role)
    }

    @Test func notificationsRejectionsAndLinksAreCounted() throws {
        var feed = WorkoutFeed(engine: try LiveStateEngine())
        let heartRate = SensorKind.all.firstIndex { $0.measurementCharacteristic == .heartRateMeasurement }!
        let footPod = SensorKind.all.firstIndex { $0.measurementCharacteristic == BluetoothUUID(assigned: 0x2A53) }!
        _ = feed.handle(event(0, .connected))
        _ = feed.handle(event(0, .connected, .distance))
        _ = feed.handle(event(1, .notification(characteristic: .heartRateMeasurement, value: [0x06, 100])))
        _ = feed.handle(event(2, .notification(characteristic: .heartRateMeasurement, value: [0x01])))
        _ = feed.handle(event(3, .notification(characteristic: BluetoothUUID(assigned: 0x2A53), value: [0x02, 0, 3, 170, 1, 0, 0, 0]), .distance))
        _ = feed.handle(event(4, .notification(characteristic: BluetoothUUID(assigned: 0x2A53), value: [0x02]), .distance))
        _ = feed.handle(event(5, .battery(try BatteryLevel(percent: 80))))
        #expect(feed.tally.notifications(kind: heartRate) == 2 && feed.tally.rejected(kind: heartRate) == 1)
        #expect(feed.tally.notifications(kind: footPod) == 2 && feed.tally.rejected(kind: footPod) == 1)
        #expect(feed.tally.lastValidSample == EngineScript.time(1), "the malformed one at 2 s is no valid sample")
        #expect(feed.tally.linksUp == [.strap, .distance] && feed.tally.reconnects == 0)
        _ = feed.handle(event(6, .disconnected(reason: "link loss")))
        #expect(feed.tally.linksUp == [.distance])
        _ = feed.handle(event(7, .connected))
        #expect(feed.tally.linksUp == [.strap, .distance] && feed.tally.reconnects == 1)
    }
}
