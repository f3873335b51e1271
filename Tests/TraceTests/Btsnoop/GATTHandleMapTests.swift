import Sensors
import Testing
@testable import Trace

@Suite struct GATTHandleMapTests {
    let connection = ACLReassembler.Connection(controller: 0, handle: 0x0040)
    let strap = "F1:5A:17:00:00:01"

    func pdu(_ hex: String) throws -> ATTPDU { try #require(ATTPDU(try Hex.decodeLenient(hex))) }

    @Test func learnsHandlesFromCharacteristicDiscovery() throws {
        var map = GATTHandleMap(fallback: [:])
        map.sent(try pdu("08 0100 ffff 0328"), on: connection)
        // a 16-bit declaration, then (in a second response) a 128-bit one
        #expect(map.received(try pdu("09 07 2900 10 2a00 372a"), on: connection, from: strap))
        map.sent(try pdu("08 2a00 ffff 0328"), on: connection)
        #expect(map.received(try pdu("09 15 3000 10 3100 9ecadc240ee5a9e093f3a3b50300406e"), on: connection, from: strap))
        #expect(map.characteristic(0x002a, of: strap) == .heartRateMeasurement)
        #expect(map.characteristic(0x0031, of: strap) == BluetoothUUID("6e400003-b5a3-f393-e0a9-e50e24dcca9e"))
        #expect(map.characteristic(0x0029, of: strap) == nil, "the declaration's own handle is not the value's")
        #expect(map.characteristic(0x002a, of: "F1:5A:17:00:00:02") == nil, "handles are per device")
        #expect(map.characteristics(of: strap) == [.heartRateMeasurement, BluetoothUUID("6e400003-b5a3-f393-e0a9-e50e24dcca9e")!])
    }

    @Test func readsOnlyTheAnswersToACharacteristicDiscovery() throws {
        var map = GATTHandleMap(fallback: [:])
        // a response nobody asked for, then one to a Read By Type of Device Name (0x2A00)
        #expect(map.received(try pdu("09 07 2900 10 2a00 372a"), on: connection, from: strap))
        map.sent(try pdu("08 0100 ffff 002a"), on: connection)
        #expect(map.received(try pdu("09 07 0300 48524d2d53"), on: connection, from: strap))
        // a discovery ended by an error (Attribute Not Found), then the same response
        map.sent(try pdu("08 0100 ffff 0328"), on: connection)
        #expect(map.received(try pdu("01 08 0100 0a"), on: connection, from: strap))
        #expect(map.received(try pdu("09 07 2900 10 2a00 372a"), on: connection, from: strap))
        // a discovery still outstanding when the link went down
        map.sent(try pdu("08 0100 ffff 0328"), on: connection)
        map.end(connection)
        #expect(map.received(try pdu("09 07 2900 10 2a00 372a"), on: connection, from: strap))
        #expect(map.characteristics(of: strap).isEmpty)
    }

    @Test func aDeclarationWithoutAUUIDIsMalformed() throws {
        var map = GATTHandleMap(fallback: [:])
        map.sent(try pdu("08 0100 ffff 0328"), on: connection)
        #expect(!map.received(try pdu("09 05 2900 10 2a00"), on: connection, from: strap))
        #expect(map.characteristics(of: strap).isEmpty)
    }

    @Test func theFallbackNamesHandlesNoDiscoveryCovers() throws {
        var map = GATTHandleMap(fallback: [0x002a: BluetoothUUID(assigned: 0x2A53), 0x0030: .batteryLevel])
        map.sent(try pdu("08 0100 ffff 0328"), on: connection)
        _ = map.received(try pdu("09 07 2900 10 2a00 372a"), on: connection, from: strap)
        #expect(map.characteristic(0x002a, of: strap) == .heartRateMeasurement, "the capture's discovery comes first")
        #expect(map.characteristic(0x0030, of: strap) == .batteryLevel)
        #expect(map.characteristic(0x002a, of: "F1:5A:17:00:00:02") == BluetoothUUID(assigned: 0x2A53))
    }
}
