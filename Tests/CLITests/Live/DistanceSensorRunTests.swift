import BusTestSupport
import DBus
import Foundation
import Sensors
import Testing
import TestSupport
@testable import CLI

/// `hrbridge run --distance-device` on the fake bluetoothd: a strap and a foot pod (0x2A53, 3 m
/// more total distance per value) feed one activity through two links; one version-2 trace holds
/// both sensors' values exactly as sent, and a pod that drops out never touches the heart rate.
@Suite(.serialized, .timeLimit(.minutes(2))) struct DistanceSensorRunTests {
    static let pod = "F1:5A:17:00:00:02"

    @Test(arguments: [[], ["--no-acquire"]])
    func thePodsDistanceReachesTheUpdatesAndTheTraceHoldsBothSensors(mode: [String]) async throws {
        let fake = try FakeStrapBus(["--interval", "20", "--count", "400",
                                     "--straps", "\(FakeStrapBus.strap)=HRM-Sim 1,\(Self.pod)=RSC-Sim 2=rsc"] + mode)
        let directory = try TemporaryDirectory()
        let tracePath = directory.path("run.trace")
        let run = try RunningBridge(["run", "--device", FakeStrapBus.strap, "--distance-device", Self.pod, "--distance-step", "30",
                                     "--record", tracePath, "--state-dir", directory.path("state")],
                                    environment: fake.bus.environment, logPath: directory.path("stderr"))
        try await run.waitFor(reason: "start")
        let moved = try await run.waitFor(reason: "changed") { (($0["contentState"] as? [String: Any])?["distanceMeters"] as? Double ?? 0) >= 30 }
        #expect((moved["contentState"] as? [String: Any])?["heartRate"] != nil)

        // The pod drops out: said on stderr, no sensor-lost for the strap, and it comes back.
        try await fake.control("DropLink", .string(Self.pod))
        try await run.waitFor(stderr: "distance sensor lost")
        try await run.waitFor(stderr: "distance sensor back")
        let status = try await run.terminate()
        #expect(status == 143, "\(run.stderr)")
        #expect(!run.updates.contains { $0["reason"] as? String == "sensor-lost" }, "the pod's drop is not the strap's")

        // One trace, both sensors, each exactly as sent; the pod's lines tagged `distance`.
        let trace = try RecordedTrace(path: tracePath)
        #expect(trace.header.version == 2 && trace.header.distanceAddress == Self.pod)
        let strapValues = trace.events.filter { $0.sensor == .strap }
        let podValues = trace.events.filter { $0.sensor == .distance }.compactMap { event -> [UInt8]? in
            guard case let .notification(characteristic, value) = event.kind, characteristic == BluetoothUUID(assigned: 0x2A53) else { return nil }
            return value
        }
        #expect(RecordedTrace.rates(of: strapValues) == (try await fake.sent()))
        let podSent = try await fake.sent(Self.pod)
        #expect(podValues.map { Int64(UInt32(littleEndian: $0[4...].withUnsafeBytes { $0.loadUnaligned(as: UInt32.self) }) / 30) } == podSent)
        // The last update shows what the pod covered since the activity started, to 0.1 m.
        let last = try #require(run.updates.last)
        #expect(last["reason"] as? String == "end:stopped")
        let shown = try #require((last["contentState"] as? [String: Any])?["distanceMeters"] as? Double)
        #expect(shown > 30 && shown <= Double(3 * (podSent.count - 1)), "\(shown) m of \(podSent.count) pod values")

        // The trace replays to the same updates; only the end differs in time (the signal's, in the
        // run; in the replay, the trace's last event: the links letting go, just after).
        let replay = runHRBridge(["replay", "--fast", "--distance-step", "30", tracePath])
        #expect(replay.status == .success, "\(replay.log)")
        let replayed = replay.output.split(separator: "\n").map(String.init)
        let live = try run.updates.map { String(decoding: try JSONSerialization.data(withJSONObject: $0, options: [.sortedKeys]), as: UTF8.self) }
        let normalized = try replayed.map {
            String(decoding: try JSONSerialization.data(withJSONObject: try JSONSerialization.jsonObject(with: Data($0.utf8)), options: [.sortedKeys]), as: UTF8.self)
        }
        #expect(normalized.dropLast() == live.dropLast())
        #expect(replayed.count == live.count)
        fake.stop()
    }
}
