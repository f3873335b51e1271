import BlueZ
import BusTestSupport
import DBus
import Foundation
import Sensors
import Testing

/// Finding sensors bluetoothd does not know yet. Discovery is one session per bus client, and a
/// run's links share one connection: the last link still scanning stops it.
@Suite(.serialized, .timeLimit(.minutes(2))) struct DiscoveryTests {
    /// A fresh setup: the strap is found at once, the foot pod only wakes when its wearer starts
    /// running. The strap's link leaves the scan running for the pod's (stopping it for all left
    /// the pod's link a whole discovery window without one); the pod's link, the last, stops it.
    @Test func aSensorThatWakesAfterAnotherWasFoundIsStillFound() async throws {
        let pod = "F1:5A:17:00:00:02"
        let fake = try await FakeBlueZ(["--interval", "20", "--straps", "\(FakeBlueZ.strap)=HRM-Sim 1,\(pod)=Pod=rsc",
                                        "--unknown", "\(FakeBlueZ.strap),\(pod)", "--asleep", pod])
        let (_, strapTask, strap) = fake.link()
        let (_, podTask, podEvents) = fake.link(.address(pod), role: .distance)
        try await strap.read(until: { $0.contains { $0.kind == .connected } }, "the strap found and connected")
        try await Task.sleep(for: .milliseconds(500))
        #expect(try await fake.calls("StopDiscovery") == 0, "the strap's link leaves the scan to the pod's")
        try await fake.control("Wake", .string(pod))
        try await podEvents.read(until: { events in
            events.contains { if case .notification = $0.kind { true } else { false } }
        }, within: 10, "the pod, awake after the strap was found, found and streaming")
        let deadline = Date().addingTimeInterval(5)
        while try await fake.calls("StopDiscovery") == 0, Date() < deadline { try await Task.sleep(for: .milliseconds(20)) }
        #expect(try await fake.calls("StopDiscovery") >= 1, "the last link scanning ends the scan")
        strapTask.cancel()
        podTask.cancel()
        _ = await strapTask.result
        _ = await podTask.result
        await fake.stop()
    }
}
