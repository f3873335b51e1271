import Sensors
import Testing
@testable import Trace

@Suite struct ACLReassemblerTests {
    typealias Connection = ACLReassembler.Connection

    /// Feeds ACL packets (hex) from the device; returns the frames completed and the skips.
    func reassemble(_ packets: [String]) throws -> (frames: [ACLReassembler.Frame], skips: BtsnoopSkips) {
        var reassembler = ACLReassembler()
        var skips = BtsnoopSkips()
        var frames: [ACLReassembler.Frame] = []
        for packet in packets {
            let (_, frame) = try reassembler.add(try Hex.decodeLenient(packet)[...], controller: 0, direction: .fromDevice, skips: &skips)
            frames += frame.map { [$0] } ?? []
        }
        return (frames, skips)
    }

    let connection = Connection(controller: 0, handle: 0x0040)

    @Test(arguments: [
        // one packet: handle 0x0040 with boundary flag 10 (start), 7 bytes: L2CAP length 3, CID 4, a notification's first 3 bytes
        (["4020 0700 0300 0400 1b2a00"], [0x1b, 0x2a, 0x00]),
        // start (flag 00, as a host sends it) and continuation (flag 01)
        (["4000 0600 0500 0400 1b2a", "4010 0300 001648"], [0x1b, 0x2a, 0x00, 0x16, 0x48]),
        // the basic header itself split over two packets
        (["4020 0200 0300", "4010 0500 0400 1b2a00"], [0x1b, 0x2a, 0x00]),
        // a continuation without a start is skipped; the next start begins afresh
        (["4010 0200 1648", "4020 0500 0100 0400 1e"], [0x1e]),
    ] as [([String], [UInt8])])
    func joinsFragments(packets: [String], payload: [UInt8]) throws {
        let (frames, _) = try reassemble(packets)
        #expect(frames == [ACLReassembler.Frame(connection: connection, channel: 0x0004, payload: payload)])
    }

    @Test func countsWhatItSkips() throws {
        let (frames, skips) = try reassemble([
            "4010 0200 1648",             // continuation without a start
            "4020 0600 0500 0400 1b2a",   // a start left unfinished by …
            "4020 0500 0100 0400 1e",     // … the next start
        ])
        #expect(frames.count == 1)
        #expect(skips.counts == [.continuationWithoutStart: 1, .unfinishedFrame: 1])
    }

    @Test func aFrameUnfinishedAtTheEndOfItsLinkIsCounted() throws {
        var reassembler = ACLReassembler()
        var skips = BtsnoopSkips()
        _ = try reassembler.add(try Hex.decodeLenient("4020 0600 0500 0400 1b2a")[...], controller: 0, direction: .fromDevice, skips: &skips)
        reassembler.end(connection, skips: &skips)
        reassembler.end(connection, skips: &skips)
        #expect(skips.counts == [.unfinishedFrame: 1])
    }

    @Test func directionsAndConnectionsAreJoinedApart() throws {
        var reassembler = ACLReassembler()
        var skips = BtsnoopSkips()
        let start = try Hex.decodeLenient("4020 0500 0200 0400 1b")[...]
        let end = try Hex.decodeLenient("4010 0100 2a")[...]
        _ = try reassembler.add(start, controller: 0, direction: .fromDevice, skips: &skips)
        _ = try reassembler.add(start, controller: 1, direction: .fromDevice, skips: &skips)
        _ = try reassembler.add(start, controller: 0, direction: .toDevice, skips: &skips)
        let (_, frame) = try reassembler.add(end, controller: 1, direction: .fromDevice, skips: &skips)
        #expect(frame == ACLReassembler.Frame(connection: Connection(controller: 1, handle: 0x0040), channel: 4, payload: [0x1b, 0x2a]))
        #expect(skips.isEmpty)
    }

    @Test(arguments: [
        ("4020 07", 0, "ACL packet of 3 bytes has no header"),
        ("4020 0800 0300 0400 1b2a00", 0, "ACL packet declares 8 data bytes but has 7"),
        ("4020 0800 0300 0400 1b2a0016", 0, "ACL data runs 1 bytes past the end of its 3-byte L2CAP frame (connection 0x0040)"),
    ])
    func rejectsPacketsThatCannotBeJoined(hex: String, offset: Int, what: String) throws {
        let packet = try Hex.decodeLenient(hex)[...]
        var reassembler = ACLReassembler()
        var skips = BtsnoopSkips()
        #expect(throws: BtsnoopError(offset: offset, what)) {
            _ = try reassembler.add(packet, controller: 0, direction: .fromDevice, skips: &skips)
        }
    }

    @Test func aContinuationThatOverfillsItsFrameIsRejected() throws {
        var reassembler = ACLReassembler()
        var skips = BtsnoopSkips()
        _ = try reassembler.add(try Hex.decodeLenient("4020 0600 0300 0400 1b2a")[...], controller: 0, direction: .fromDevice, skips: &skips)
        let overfill = try Hex.decodeLenient("4010 0200 0016")[...]
        #expect(throws: BtsnoopError(offset: 0, "ACL data runs 1 bytes past the end of its 3-byte L2CAP frame (connection 0x0040)")) {
            _ = try reassembler.add(overfill, controller: 0, direction: .fromDevice, skips: &skips)
        }
    }
}
