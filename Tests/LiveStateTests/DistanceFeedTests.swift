import Sensors
import LiveState
import Testing

/// The distance sensor's events beside the strap's: its metres reach the updates, its dropouts are
/// said on stderr and never touch the heart rate, and its events never pass for the strap's.
@Suite struct DistanceFeedTests {
    private static let footPod = BluetoothUUID(assigned: 0x2A53)
    private static let bikeSensor = BluetoothUUID(assigned: 0x2A5B)

    private func strap(_ seconds: Double, _ kind: SensorEvent.Kind = .notification(characteristic: .heartRateMeasurement, value: [0x06, 100])) -> SensorEvent {
        SensorEvent(time: EngineScript.time(seconds), kind: kind)
    }

    private func sensor(_ seconds: Double, _ kind: SensorEvent.Kind) -> SensorEvent {
        SensorEvent(time: EngineScript.time(seconds), kind: kind, sensor: .distance)
    }

    /// RSC with total distance (flags 0x02): speed 3 m/s (0x0300 / 256), cadence 170, total in 0.1 m.
    private func pod(_ seconds: Double, decimeters: UInt32) -> SensorEvent {
        let total = (0..<4).map { UInt8(truncatingIfNeeded: decimeters >> (8 * $0)) }
        return sensor(seconds, .notification(characteristic: Self.footPod, value: [0x02, 0x00, 0x03, 170] + total))
    }

    /// `<seconds> <reason> <rate or -> <distance>`.
    private func describe(_ updates: [ActivityUpdate]) -> [String] {
        updates.map { update in
            let seconds = Int(update.timestamp.seconds(since: EngineScript.origin))
            return "\(seconds) \(update.reason.rawValue) \(update.contentState.heartRate.map(String.init) ?? "-") \(update.contentState.distanceMeters)"
        }
    }

    @Test func footPodTotalsBecomeTheActivitysDistance() throws {
        var policy = CadencePolicy()
        policy.distanceStep = 10
        var feed = WorkoutFeed(engine: try LiveStateEngine(policy: policy))
        var updates: [ActivityUpdate] = []
        // Before the start: only the base. Then 3 m a second; a 10 m step shows at 12 m and 24 m.
        updates += feed.handle(pod(0, decimeters: 5_000)).updates
        for second in 0..<8 {
            updates += feed.handle(strap(Double(second))).updates
            updates += feed.handle(pod(Double(second) + 0.5, decimeters: 5_000 + 30 * UInt32(second + 1))).updates
        }
        updates += feed.finish(at: EngineScript.time(8))
        #expect(describe(updates) == ["0 start 100 0.0", "3 changed 100 12.0", "7 changed 100 24.0", "8 end:stopped 100 24.0"])
    }

    @Test func aLostDistanceSensorIsSaidAndTheHeartRateGoesOn() throws {
        var feed = WorkoutFeed(engine: try LiveStateEngine())
        _ = feed.handle(strap(0))
        #expect(feed.distanceSensor == nil)
        _ = feed.handle(pod(0.5, decimeters: 100))
        _ = feed.handle(pod(1.5, decimeters: 130))
        #expect(feed.distanceSensor == .live)
        let lost = feed.handle(sensor(2, .disconnected(reason: "link loss")))
        #expect(feed.distanceSensor == .lost)
        #expect(lost.warning == "distance sensor lost: updates keep 3.0 m until it is back")
        #expect(lost.updates.isEmpty)
        #expect(feed.handle(sensor(2.5, .disconnected(reason: nil))).warning == nil) // said once
        #expect(feed.handle(sensor(3, .connected)).warning == nil) // back only with a measurement
        let strapOn = feed.handle(strap(4)).updates
        #expect(strapOn.isEmpty) // the strap never heard of it: no sensor-lost
        let back = feed.handle(pod(5, decimeters: 160))
        #expect(back.warning == "distance sensor back")
        #expect(feed.distanceSensor == .live)
        #expect(describe(feed.finish(at: EngineScript.time(6))) == ["6 end:stopped 100 6.0"])
    }

    /// What `evaluate` measures the shown distance by: each valid measurement's metres, whether the
    /// engine counts them or not; nothing for any other event.
    @Test func eachValidMeasurementSaysTheMetersItCovered() throws {
        var feed = WorkoutFeed(engine: try LiveStateEngine())
        #expect(feed.handle(pod(0, decimeters: 100)).metersCovered == 0) // the base, before any activity
        #expect(feed.handle(strap(0.5)).metersCovered == nil)
        #expect(feed.handle(pod(1, decimeters: 130)).metersCovered == 3)
        #expect(feed.handle(sensor(2, .disconnected(reason: nil))).metersCovered == nil)
        #expect(feed.handle(sensor(3, .notification(characteristic: Self.footPod, value: [0x02]))).metersCovered == nil)
        #expect(feed.handle(pod(4, decimeters: 150)).metersCovered == 2) // back: the total across the drop
    }

    @Test func malformedValuesAreDroppedWithTheirReason() throws {
        var feed = WorkoutFeed(engine: try LiveStateEngine())
        _ = feed.handle(strap(0))
        let short = feed.handle(sensor(1, .notification(characteristic: Self.footPod, value: [0x02, 0x00, 0x03, 170, 1])))
        #expect(short.warning == "dropped malformed 0x2A53 value: flags promise total distance (4 bytes) but 1 byte follows")
        let bike = feed.handle(sensor(1, .notification(characteristic: Self.bikeSensor, value: [0x01, 0, 0])))
        #expect(bike.warning?.hasPrefix("dropped malformed 0x2A5B value: ") == true)
    }

    @Test func theSensorsOtherEventsAreNotTheStraps() throws {
        var feed = WorkoutFeed(engine: try LiveStateEngine())
        _ = feed.handle(strap(0))
        // A heart-rate value or a battery level from the distance sensor is no sample and no distance.
        for kind: SensorEvent.Kind in [.notification(characteristic: .heartRateMeasurement, value: [0x06, 50]),
                                      .notification(characteristic: .batteryLevel, value: [80]), .connected] {
            let outcome = feed.handle(sensor(1, kind))
            #expect(outcome.updates.isEmpty && outcome.warning == nil && outcome.measurement == nil)
        }
        #expect(describe(feed.finish(at: EngineScript.time(2))) == ["2 end:stopped 100 0.0"])
    }

    @Test func bikeWheelRevolutionsTimesTheCircumference() throws {
        var feed = WorkoutFeed(engine: try LiveStateEngine(), distance: DistanceSettings(wheelCircumference: 2.105))
        _ = feed.handle(strap(0))
        func wheel(_ seconds: Double, revolutions: UInt32, eventTime: UInt16) -> SensorEvent {
            let count = (0..<4).map { UInt8(truncatingIfNeeded: revolutions >> (8 * $0)) }
            return sensor(seconds, .notification(characteristic: Self.bikeSensor,
                                                 value: [0x01] + count + [UInt8(eventTime & 0xFF), UInt8(eventTime >> 8)]))
        }
        _ = feed.handle(wheel(1, revolutions: 1_000, eventTime: 1_024))
        _ = feed.handle(wheel(2, revolutions: 1_004, eventTime: 2_048))
        #expect(describe(feed.finish(at: EngineScript.time(3))) == ["3 end:stopped 100 8.4"]) // 4 × 2.105 = 8.42
    }
}
