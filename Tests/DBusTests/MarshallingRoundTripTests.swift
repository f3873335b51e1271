import BusTestSupport
import DBus
import Foundation
import Testing

/// Every D-Bus type goes to a dbus-python peer and back: our encoder and decoder against an
/// independent implementation, not against each other.
@Suite(.serialized) struct MarshallingRoundTripTests {
    static let samples: [BusValue] = [
        .byte(0), .byte(255),
        .boolean(true), .boolean(false),
        .int16(-32768), .uint16(65535),
        .int32(-2_000_000_000), .uint32(4_000_000_000),
        .int64(Int64.min), .uint64(UInt64.max),
        .double(-1.5e300),
        .string(""), .string("Grüße, 心拍 ♥"),
        .objectPath("/org/bluez/hci0/dev_AA_BB_CC_DD_EE_FF"),
        .signature("a{sv}"),
        .bytes([]), .bytes([0x16, 0x48, 0x00, 0x03]),
        .array(elementSignature: "s", [.string("0000180d-0000-1000-8000-00805f9b34fb"), .string("x")]),
        .array(elementSignature: "i", []),
        .array(elementSignature: "ay", [.bytes([1, 2]), .bytes([])]),
        .propertyMap(["Connected": .boolean(true), "RSSI": .int16(-60), "Name": .string("H10")]),
        .dictionary(keySignature: "o", valueSignature: "a{sa{sv}}", [
            BusDictionaryEntry(.objectPath("/org/bluez/hci0"), .dictionary(keySignature: "s", valueSignature: "a{sv}", [
                BusDictionaryEntry(.string("org.bluez.Adapter1"), .propertyMap(["Powered": .boolean(false)])),
            ])),
        ]),
        .dictionary(keySignature: "q", valueSignature: "v", [BusDictionaryEntry(.uint16(0x006B), .variant(.bytes([9, 8])))]),
        .structure([.string("a"), .int32(1), .variant(.string("v"))]),
        .variant(.uint32(7)),
        .variant(.variant(.string("nested"))),
        .variant(.array(elementSignature: "s", [.string("in a variant")])),
    ]

    @Test func everyTypeComesBackUnchanged() async throws {
        let peer = try await EchoPeer.start()
        for sample in Self.samples {
            let echoed = try await peer.call("Echo", [sample])
            #expect(echoed == [sample], "signature \(sample.signature)")
        }
        let all = try await peer.call("Echo", Self.samples)
        #expect(all == Self.samples)
        await peer.stop()
    }

    @Test func fileDescriptorTravelsBothWays() async throws {
        let peer = try await EchoPeer.start()
        #expect(peer.connection.canPassFileDescriptors)
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        let readEnd = FileHandle(fileDescriptor: ends[0], closeOnDealloc: true)
        let sent = UnixFileDescriptor(owning: ends[1])
        let echoed = try await peer.call("Echo", [.unixFD(sent)])
        let received = try #require(echoed.first?.fileDescriptor?.take())
        #expect(received != ends[1], "a new descriptor for the same pipe")
        let message: [UInt8] = Array("through the echoed fd".utf8)
        #expect(write(received, message, message.count) == message.count)
        close(received)
        _ = sent.take().map(close) // close our write end so the read sees EOF
        #expect(Array(readEnd.readDataToEndOfFile()) == message)
        await peer.stop()
    }

    @Test func invalidArgumentsThrowInsteadOfAborting() async throws {
        let peer = try await EchoPeer.start()
        await #expect(throws: BusError.invalidArgument("'not/a path' is not a valid object path")) {
            try await peer.call("Echo", [.objectPath("not/a path")])
        }
        await #expect(throws: BusError.self) { try await peer.call("Echo", [.string("nul\0inside")]) }
        await #expect(throws: BusError.self) {
            try await peer.call("Echo", [.array(elementSignature: "s", [.int32(1)])])
        }
        // The connection is still usable afterwards.
        #expect(try await peer.call("Echo", [.string("still here")]) == [.string("still here")])
        await peer.stop()
    }
}
