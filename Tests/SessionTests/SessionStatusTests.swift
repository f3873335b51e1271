import LiveState
import Sensors
import Testing
@testable import Session

/// The one-line status `ctl status` prints: the distance and its sensor only once one was heard from.
@Suite struct SessionStatusTests {
    static func update(distance: Double) throws -> ActivityUpdate {
        var engine = try LiveStateEngine()
        let start = Timestamp(unixSeconds: 1_704_088_800)
        var update = try engine.receive(.sample(beatsPerMinute: 142, contact: .detected), at: start)[0]
        update.contentState.distanceMeters = distance
        return update
    }

    @Test(arguments: [
        (nil, "(start, 142 bpm); priority 10: 1 sent, 0 demoted; sink stdout: sent 1"),
        (DistanceSensorState.live, "(start, 142 bpm, 1234.5 m); distance sensor live; priority 10: 1 sent, 0 demoted; sink stdout: sent 1"),
        (DistanceSensorState.lost, "(start, 142 bpm, 1234.5 m); distance sensor lost; priority 10: 1 sent, 0 demoted; sink stdout: sent 1"),
    ])
    func distanceShowsWithItsSensor(sensor: DistanceSensorState?, ending: String) throws {
        let update = try Self.update(distance: 1234.5)
        let status = SessionStatus(running: true, activity: update, distanceSensor: sensor, urgentPushes: 1,
                                   sinks: [.init(name: "stdout", summary: "sent 1")])
        #expect(status.line == "running, activity \(update.activityID) #1 \(ending)")
    }

    @Test func aMachineSaysWhatItOffersAndWhetherItsRateIsShown() throws {
        let update = try Self.update(distance: 30)
        let status = SessionStatus(running: true, activity: update, distanceSensor: .live, distanceSensorOffers: "total distance, heart rate",
                                   heartRateSource: .machine, heartRateFromMachineNow: true, sinks: [])
        #expect(status.line == "running, activity \(update.activityID) #1 (start, 142 bpm, 30.0 m); distance sensor live "
            + "(offers total distance, heart rate); heart rate from the machine while no strap (now); priority 10: 0 sent, 0 demoted")
    }
}
