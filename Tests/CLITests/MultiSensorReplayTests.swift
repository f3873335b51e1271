import Foundation
import TestSupport
import Testing
@testable import CLI

/// A version-2 trace (a strap and a foot pod) replayed through the whole pipeline.
@Suite struct MultiSensorReplayTests {
    /// 40 s of 100 bpm; the pod from t = 0.5 s at 3 m/s with its total distance (0.1 m units, from
    /// 1000.0 m), dropping out between t = 20 and 25 s while the strap goes on.
    static func trace() -> String {
        var lines = ["hrbridge-trace 2 start=2024-01-01T06:00:00Z address=F1:5A:17:00:00:01", "0 connected"]
        for second in 0..<40 {
            lines.append("\(second * 1_000_000) notify 2a37 0664")
            if second == 0 { lines.append("200000 distance connected") }
            let podTime = second * 1_000_000 + 500_000
            if second == 20 { lines.append("\(podTime) distance disconnected link%20loss") }
            guard second < 20 || second >= 25 else { continue }
            let decimeters = UInt32(10_000 + 30 * second)
            let total = (0..<4).map { String(format: "%02x", (decimeters >> (8 * $0)) & 0xFF) }.joined()
            lines.append("\(podTime) distance notify 2a53 020003aa\(total)")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    @Test func updatesCarryThePodsDistanceAndItsDropoutIsSaid() throws {
        let directory = try TemporaryDirectory()
        let path = try directory.write("pod.trace", Self.trace())
        let fast = runHRBridge(["replay", "--fast", "--distance-step", "30", path])
        #expect(fast.status == .success)
        let updates = try fast.output.split(separator: "\n").map { try JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any] }
        let shown = updates.map { ($0["reason"] as! String, ($0["contentState"] as! [String: Any])["distanceMeters"] as! Double) }
        // The base is the pod's first total (t = 0.5 s); 39 seconds later it is 117 m further, the
        // drop included (a total counted across it, as the pod kept measuring).
        #expect(shown.first! == ("start", 0))
        #expect(shown.last! == ("end:stopped", 117))
        #expect(shown.dropFirst().dropLast().allSatisfy { $0.0 == "changed" })
        #expect(shown.map(\.1) == shown.map(\.1).sorted()) // never backwards
        #expect(fast.log.contains("pod.trace:45: distance sensor lost: updates keep 57.0 m until it is back"))
        #expect(fast.log.contains("pod.trace:51: distance sensor back"))

        let paced = runHRBridge(["replay", "--speed", "20", "--distance-step", "30", "--state-dir", directory.url.path, path])
        #expect(paced.output == fast.output)
    }
}
