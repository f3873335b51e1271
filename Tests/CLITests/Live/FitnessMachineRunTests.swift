import BusTestSupport
import DBus
import Foundation
import Sensors
import Testing
import TestSupport
@testable import CLI

/// Treadmills and indoor bikes (FTMS) on the fake bluetoothd: `scan` tells them apart by their
/// advertised machine type, `run --distance-device` takes the machine's Total Distance into the
/// updates and says what it offers, and `--heart-rate-from machine` lets its rate stand in for a
/// missing strap; every trace replays to the same updates.
@Suite(.serialized, .timeLimit(.minutes(2))) struct FitnessMachineRunTests {
    static let treadmill = "F1:5A:17:00:00:02"
    static let bike = "F1:5A:17:00:00:03"

    @Test func scanTellsATreadmillFromAnIndoorBike() throws {
        let fake = try FakeStrapBus(["--straps", "\(FakeStrapBus.strap)=HRM-Sim 1,\(Self.treadmill)=Treadmill-Sim 2=treadmill,\(Self.bike)=IndoorBike-Sim 3=bike"])
        let result = try FinishedBridge(["scan", "--timeout", "0.5", "--json"], environment: fake.bus.environment)
        #expect(result.status == 0, "\(result.log)")
        #expect(Set(result.output.split(separator: "\n")) == [
            #"{"address":"F1:5A:17:00:00:01","name":"HRM-Sim 1","rssi":-79,"battery":null,"kind":"heart rate"}"#,
            #"{"address":"F1:5A:17:00:00:02","name":"Treadmill-Sim 2","rssi":-79,"battery":null,"kind":"treadmill"}"#,
            #"{"address":"F1:5A:17:00:00:03","name":"IndoorBike-Sim 3","rssi":-79,"battery":null,"kind":"indoor bike"}"#,
        ])
        fake.stop()
    }

    @Test func aTreadmillsTotalDistanceReachesTheUpdates() async throws {
        let fake = try FakeStrapBus(["--interval", "20", "--count", "400",
                                     "--straps", "\(FakeStrapBus.strap)=HRM-Sim 1,\(Self.treadmill)=Treadmill-Sim 2=treadmill"])
        let directory = try TemporaryDirectory()
        let tracePath = directory.path("run.trace")
        let run = try RunningBridge(["run", "--device", FakeStrapBus.strap, "--distance-device", Self.treadmill, "--distance-step", "30",
                                     "--record", tracePath, "--state-dir", directory.path("state")],
                                    environment: fake.bus.environment, logPath: directory.path("stderr"))
        try await run.waitFor(stderr: "treadmill offers average speed, total distance, inclination, elevation gain, expended energy, heart rate, elapsed time")
        try await run.waitFor(reason: "changed") { (($0["contentState"] as? [String: Any])?["distanceMeters"] as? Double ?? 0) >= 30 }
        let status = try await run.terminate()
        #expect(status == 143, "\(run.stderr)")

        // The trace holds what the machine offers (read at connect) and every 0x2ACD value as sent.
        let trace = try RecordedTrace(path: tracePath)
        #expect(trace.header.version == 2 && trace.header.heartRateFrom == nil)
        let machine = trace.events.filter { $0.sensor == .distance }.compactMap { event -> (BluetoothUUID, [UInt8])? in
            guard case let .notification(characteristic, value) = event.kind else { return nil }
            return (characteristic, value)
        }
        #expect(machine.first.map { $0.0 == BluetoothUUID(assigned: 0x2ACC) && $0.1 == [0x1D, 0x16, 0, 0, 0, 0, 0, 0] } == true)
        let totals = machine.filter { $0.0 == BluetoothUUID(assigned: 0x2ACD) }.map { Int($0.1[4]) | Int($0.1[5]) << 8 | Int($0.1[6]) << 16 }
        let sent = try await fake.sent(Self.treadmill)
        #expect(totals == sent.map { 3 * Int($0) })
        // The last update shows what the machine counted while the activity ran: never more.
        let shown = try #require((run.updates.last?["contentState"] as? [String: Any])?["distanceMeters"] as? Double)
        #expect(shown >= 30 && shown <= Double(totals.last! - totals.first!), "\(shown) m")

        try Self.expectReplayMatches(tracePath, run)
        fake.stop()
    }

    @Test func withoutAStrapTheBikesOwnHeartRateFeedsTheActivity() async throws {
        let absentStrap = "F1:5A:17:00:00:09"
        let fake = try FakeStrapBus(["--interval", "20", "--count", "400", "--straps", "\(Self.bike)=IndoorBike-Sim 3=bike"])
        let directory = try TemporaryDirectory()
        let tracePath = directory.path("run.trace")
        let run = try RunningBridge(["run", "--device", absentStrap, "--distance-device", Self.bike, "--heart-rate-from", "machine",
                                     "--distance-step", "30", "--record", tracePath, "--state-dir", directory.path("state")],
                                    environment: fake.bus.environment, logPath: directory.path("stderr"))
        let start = try await run.waitFor(reason: "start")
        let rate = try #require((start["contentState"] as? [String: Any])?["heartRate"] as? Int)
        #expect((130..<150).contains(rate), "the bike's rate, 130 + n % 20: \(rate)")
        try await run.waitFor(reason: "changed") { (($0["contentState"] as? [String: Any])?["distanceMeters"] as? Double ?? 0) >= 30 }
        // ctl status says what the bike offers and that its rate is the one shown.
        let status = try await ControlCommandTests.ctl(["status"], on: fake.bus)
        #expect(status.output.contains("distance sensor live (offers average speed, cadence, total distance, resistance level, "
            + "expended energy, heart rate, elapsed time, power measurement); heart rate from the machine while no strap (now)"),
                "\(status.output)\(status.log)")
        #expect(try await run.terminate() == 143, "\(run.stderr)")
        #expect(try RecordedTrace(path: tracePath).header.heartRateFrom == .machine)
        try Self.expectReplayMatches(tracePath, run)
        fake.stop()
    }

    @Test func theMachinesHeartRateNeedsAMachine() {
        let result = runHRBridge(["run", "--heart-rate-from", "machine"])
        #expect(result.status == .usage)
        #expect(result.log.contains("--heart-rate-from machine takes it from --distance-device; none given"), "\(result.log)")
    }

    /// The trace replays to the same updates; only the end differs in time (the signal's, in the run;
    /// in the replay, the trace's last event).
    private static func expectReplayMatches(_ tracePath: String, _ run: RunningBridge) throws {
        let replay = runHRBridge(["replay", "--fast", "--distance-step", "30", tracePath])
        #expect(replay.status == .success, "\(replay.log)")
        let replayed = try replay.output.split(separator: "\n").map {
            String(decoding: try JSONSerialization.data(withJSONObject: try JSONSerialization.jsonObject(with: Data($0.utf8)), options: [.sortedKeys]), as: UTF8.self)
        }
        let live = try run.updates.map { String(decoding: try JSONSerialization.data(withJSONObject: $0, options: [.sortedKeys]), as: UTF8.self) }
        #expect(replayed.dropLast() == live.dropLast())
        #expect(replayed.count == live.count)
    }
}
