import Sensors
import Testing
@testable import Trace

@Suite struct HCILinkEventTests {
    @Test(arguments: [
        // LE Meta, LE Connection Complete: status 0, handle 0x0040, central, random address F1:5A:17:00:00:01 (little-endian), interval, latency, timeout, accuracy
        ("3e13 01 00 4000 00 01 010000175af1 1800 0000 4800 00", HCILinkEvent.connected(handle: 0x0040, peer: "F1:5A:17:00:00:01")),
        // the flag bits above the 12-bit handle are not part of it
        ("3e13 01 00 41f0 00 01 010000175af1 1800 0000 4800 00", .connected(handle: 0x0041, peer: "F1:5A:17:00:00:01")),
        // LE Enhanced Connection Complete v1: local and peer RPAs after the address
        ("3e1f 0a 00 4100 00 00 665544332211 000000000000 000000000000 1800 0000 4800 00", .connected(handle: 0x0041, peer: "11:22:33:44:55:66")),
        // LE Enhanced Connection Complete v2: advertising set and sync handle at the end
        ("3e22 29 00 4200 01 00 665544332211 000000000000 000000000000 1800 0000 4800 00 00 ffff", .connected(handle: 0x0042, peer: "11:22:33:44:55:66")),
        // Disconnection Complete: status 0, handle 0x0040, reason 0x13
        ("0504 00 4000 13", .disconnected(handle: 0x0040, reason: 0x13)),
    ])
    func decodesLinkEvents(hex: String, expected: HCILinkEvent) throws {
        #expect(try HCILinkEvent.decode(try Hex.decodeLenient(hex)[...]) == expected)
    }

    @Test(arguments: [
        "3e13 01 3e 4000 00 01 010000175af1 1800 0000 4800 00", // connection failed to be established
        "0504 0c 4000 13", // disconnect refused: the link stays
        "0e04 01 030c 00", // Command Complete (Reset)
        "3e0c 02 01 00 00 010000175af1 00 c5", // LE Advertising Report
    ])
    func ignoresOtherEventsAndFailures(hex: String) throws {
        #expect(try HCILinkEvent.decode(try Hex.decodeLenient(hex)[...]) == nil)
    }

    @Test(arguments: [
        ("05", 0, "HCI event packet of 1 bytes has no header"),
        ("0504 00 4000", 0, "HCI event 0x05 declares 4 parameter bytes but has 3"),
        ("0503 00 4000", 2, "Disconnection Complete event has 3 parameter bytes, at least 4 expected"),
        ("3e06 01 00 4000 00 01", 2, "LE Connection Complete event has 6 parameter bytes, at least 12 expected"),
    ])
    func rejectsCorruptEvents(hex: String, offset: Int, what: String) throws {
        let packet = try Hex.decodeLenient(hex)[...]
        #expect(throws: BtsnoopError(offset: offset, what)) { try HCILinkEvent.decode(packet) }
    }

    @Test(arguments: [
        (UInt8(0x13), "remote user terminated connection (0x13)"),
        (0x08, "connection timeout (0x08)"),
        (0x16, "connection terminated by local host (0x16)"),
        (0x3e, "connection failed to be established (0x3e)"),
        (0x2f, "HCI error 0x2f"),
    ])
    func namesDisconnectReasons(code: UInt8, text: String) {
        #expect(HCIDisconnectReason.text(code) == text)
    }
}
