import Foundation
import HeartRate
import Testing
import Trace

/// What TraceWriter writes, TraceReader reads back event for event.
@Suite struct TraceWriteReadTests {
    @Test func writtenEventsReadBack() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("trace-\(UUID()).trace").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let start = Timestamp(unixSeconds: 1_700_000_000)
        let events = [
            StrapEvent(time: start, kind: .connected),
            StrapEvent(time: start.adding(microseconds: 1_000_123), kind: .notification(characteristic: .heartRateMeasurement, value: [0x06, 0x48])),
            StrapEvent(time: start.adding(seconds: 2), kind: .disconnected(reason: "link lost")),
        ]
        let writer = try TraceWriter(path: path, header: TraceHeader(start: start, address: "AA:BB:CC:DD:EE:FF", name: "H10"))
        for event in events { try writer.append(event) }
        let reader = try TraceReader(path: path)
        var read: [StrapEvent] = []
        while let event = try reader.next() { read.append(event) }
        #expect(read == events)
        #expect(reader.header.name == "H10")
    }
}
