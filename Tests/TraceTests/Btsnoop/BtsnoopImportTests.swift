import Sensors
import TestSupport
import Testing
@testable import Trace

@Suite struct BtsnoopImportTests {
    /// 2024-05-01T06:30:00Z in Unix microseconds.
    static let t0: Int64 = 1_714_545_000_000_000
    static let strap = "F1:5A:17:00:00:01"
    static let pod = "F1:5A:17:00:00:02"

    /// Each device's trace as its text lines.
    func traces(_ capture: BtsnoopCapture, handles: [UInt16: BluetoothUUID] = [:]) throws -> (traces: [[String]], skips: [String]) {
        let result = try BtsnoopImport.convert(capture.bytes, source: "hci.btsnoop", handles: handles)
        let traces = result.devices.map { device in
            [device.header.line] + device.events.map { event in
                TraceEventLine.format(offset: event.time.microsecondsSinceUnixEpoch - device.header.start.microsecondsSinceUnixEpoch, event: event)
            }
        }
        return (traces, result.skips.lines)
    }

    @Test func aStrapSessionWithAReconnect() throws {
        var capture = BtsnoopCapture()
        capture.connected(handle: 0x40, peer: Self.strap, at: Self.t0)
        capture.discovery(handle: 0x40, characteristics: [(0x002a, 0x2A37), (0x002e, 0x2A19)], at: Self.t0 + 200_000)
        capture.notification(handle: 0x40, attribute: 0x002a, [0x16, 0x48, 0x00, 0x03], at: Self.t0 + 1_000_000)
        capture.att(handle: 0x40, fromDevice: true, [0x1D, 0x2e, 0x00, 0x57], at: Self.t0 + 1_500_000) // indicated battery 87
        capture.notification(handle: 0x40, attribute: 0x002a, [0x06, 0x49], at: Self.t0 + 2_000_000)
        capture.disconnected(handle: 0x40, reason: 0x13, at: Self.t0 + 2_500_000)
        // the host kept the database: no discovery after the reconnect, on a new connection handle
        capture.connected(handle: 0x41, peer: Self.strap, at: Self.t0 + 3_000_000)
        capture.notification(handle: 0x41, attribute: 0x002a, [0x06, 0x4a], at: Self.t0 + 3_400_000)
        // Multiple Handle Value Notification: the rate and the battery in one PDU
        capture.att(handle: 0x41, fromDevice: true, [0x23, 0x2a, 0x00, 0x02, 0x00, 0x06, 0x4b, 0x2e, 0x00, 0x01, 0x00, 0x56], at: Self.t0 + 4_400_000)
        capture.disconnected(handle: 0x41, reason: 0x08, at: Self.t0 + 9_000_000)
        let (traces, skips) = try traces(capture)
        #expect(traces == [[
            "hrbridge-trace 1 start=2024-05-01T06:30:00.000000Z address=F1:5A:17:00:00:01 source=hci.btsnoop",
            "0 note imported from hci.btsnoop",
            "0 connected",
            "1000000 notify 2a37 16480003",
            "1500000 battery 87",
            "2000000 notify 2a37 0649",
            "2500000 disconnected remote user terminated connection (0x13)",
            "3000000 connected",
            "3400000 notify 2a37 064a",
            "4400000 notify 2a37 064b",
            "4400000 battery 86",
            "9000000 disconnected connection timeout (0x08)",
        ]])
        #expect(skips.isEmpty)
    }

    @Test func aValueOfAnUnknownHandleIsCountedNeverGuessed() throws {
        var capture = BtsnoopCapture()
        capture.connected(handle: 0x40, peer: Self.strap, at: Self.t0)
        capture.notification(handle: 0x40, attribute: 0x002a, [0x06, 0x48], at: Self.t0 + 1_000_000)
        capture.notification(handle: 0x40, attribute: 0x002a, [0x06, 0x49], at: Self.t0 + 2_000_000)
        let (traces, skips) = try traces(capture)
        #expect(traces.map { $0.dropFirst(1) } == [["0 note imported from hci.btsnoop", "0 connected"]])
        #expect(skips == ["skipped 2× a value of handle 0x002a from F1:5A:17:00:00:01, which no GATT discovery in the capture names (name it with --handle 0x002a=UUID)"])

        let (named, none) = try self.traces(capture, handles: [0x002a: .heartRateMeasurement])
        #expect(named.map { $0.suffix(2) } == [["1000000 notify 2a37 0648", "2000000 notify 2a37 0649"]])
        #expect(none.isEmpty)
    }

    /// One trace per device: the strap's version 1, the foot pod's version 2 with its events as the distance sensor's.
    @Test func aStrapAndAFootPodGetATraceEach() throws {
        var capture = BtsnoopCapture()
        capture.connected(handle: 0x40, peer: Self.strap, at: Self.t0)
        capture.connected(handle: 0x41, peer: Self.pod, at: Self.t0 + 100_000)
        capture.discovery(handle: 0x40, characteristics: [(0x002a, 0x2A37)], at: Self.t0 + 200_000)
        capture.discovery(handle: 0x41, characteristics: [(0x0010, 0x2A53), (0x0014, 0x2A19)], at: Self.t0 + 300_000)
        capture.notification(handle: 0x41, attribute: 0x0010, [0x02, 0x00, 0x03, 0xaa], at: Self.t0 + 1_000_000)
        capture.notification(handle: 0x40, attribute: 0x002a, [0x06, 0x48], at: Self.t0 + 1_000_400)
        capture.notification(handle: 0x41, attribute: 0x0014, [0x37], at: Self.t0 + 1_500_000)
        capture.disconnected(handle: 0x41, reason: 0x08, at: Self.t0 + 2_000_000)
        let (traces, _) = try traces(capture)
        #expect(traces == [
            [
                "hrbridge-trace 1 start=2024-05-01T06:30:00.000000Z address=F1:5A:17:00:00:01 source=hci.btsnoop",
                "0 note imported from hci.btsnoop",
                "0 connected",
                "1000400 notify 2a37 0648",
            ],
            [
                "hrbridge-trace 2 start=2024-05-01T06:30:00.100000Z distance.address=F1:5A:17:00:00:02 source=hci.btsnoop",
                "0 note imported from hci.btsnoop",
                "0 distance connected",
                "900000 distance notify 2a53 020003aa",
                "1400000 distance battery 55",
                "1900000 distance disconnected connection timeout (0x08)",
            ],
        ])
    }

    @Test func whatTheHostSendsAndLinksFromBeforeTheCaptureAreNotADevicesValues() throws {
        var capture = BtsnoopCapture()
        capture.notification(handle: 0x42, attribute: 0x002a, [0x06, 0x48], at: Self.t0) // a link from before the capture
        capture.disconnected(handle: 0x42, reason: 0x13, at: Self.t0 + 100_000)
        capture.connected(handle: 0x40, peer: Self.strap, at: Self.t0 + 200_000)
        capture.discovery(handle: 0x40, characteristics: [(0x002a, 0x2A37)], at: Self.t0 + 300_000)
        capture.att(handle: 0x40, fromDevice: false, [0x1B, 0x2a, 0x00, 0x06, 0x48], at: Self.t0 + 400_000) // the host's own notification
        capture.att(handle: 0x40, fromDevice: true, [0x1B, 0x2a], at: Self.t0 + 500_000) // cut short
        capture.notification(handle: 0x40, attribute: 0x002e, [0x65], at: Self.t0 + 600_000) // battery 101
        capture.l2cap(handle: 0x40, fromDevice: true, channel: 0x0005, [0x12, 0x01, 0x08, 0x00, 0x18, 0x00, 0x28, 0x00, 0x00, 0x00, 0x2a, 0x00], at: Self.t0 + 700_000) // a connection parameter request
        capture.l2cap(handle: 0x40, fromDevice: true, channel: 0x0040, [0x03, 0x00, 0x1b, 0x2a, 0x00], at: Self.t0 + 800_000) // an EATT bearer's notification
        let (traces, skips) = try traces(capture, handles: [0x002e: .batteryLevel])
        #expect(traces.map { $0.dropFirst(1) } == [["0 note imported from hci.btsnoop", "0 connected"]])
        #expect(skips == [
            "skipped 1× L2CAP data on connection 0x0042, whose connection is not in the capture (start btmon before the device connects)",
            "skipped 1× a malformed ATT PDU from or to F1:5A:17:00:00:01",
            "skipped 1× a Battery Level from F1:5A:17:00:00:01 that is not one byte of 0–100",
            "skipped 1× an L2CAP frame from F1:5A:17:00:00:01 on channel 0x0040, which is not the ATT channel 0x0004 (EATT or another protocol: not read)",
        ])
    }

    @Test func aRemovedControllerEndsItsLinks() throws {
        var capture = BtsnoopCapture()
        capture.connected(handle: 0x40, peer: Self.strap, controller: 1, at: Self.t0)
        capture.connected(handle: 0x40, peer: Self.pod, controller: 0, at: Self.t0)
        capture.record(kind: 1, controller: 1, at: Self.t0 + 5_000_000, []) // Delete Index
        let (traces, _) = try traces(capture)
        #expect(traces.map(\.last) == ["5000000 disconnected controller removed", "0 connected"])
    }

    @Test func aClockStepBackIsAnError() throws {
        var capture = BtsnoopCapture()
        capture.connected(handle: 0x40, peer: Self.strap, at: Self.t0)
        let offset = capture.bytes.count
        capture.disconnected(handle: 0x40, reason: 0x13, at: Self.t0 - 1_500)
        #expect(throws: BtsnoopError(offset: offset, "time goes back 1500 µs from the previous event of F1:5A:17:00:00:01 (a clock step during the capture?)")) {
            try BtsnoopImport.convert(capture.bytes, source: "hci.btsnoop")
        }
    }
}
