import Sensors
import Testing

@Suite struct HexTests {
    @Test(arguments: [
        ("0648", [UInt8(0x06), 0x48]), ("06 48", [0x06, 0x48]), ("06:48", [0x06, 0x48]),
        ("0x06 0x48", [0x06, 0x48]), ("0x0648", [0x06, 0x48]), ("0X06-0X48", [0x06, 0x48]),
        ("  16 4A 3E 03\r", [0x16, 0x4A, 0x3E, 0x03]), ("", []), ("   ", []),
    ])
    func decodesLenientForms(text: String, bytes: [UInt8]) throws {
        #expect(try Hex.decodeLenient(text) == bytes)
    }

    @Test func namesTheBadCharacter() {
        #expect(throws: Hex.DecodingError.invalidCharacter("g", offset: 3)) { try Hex.decodeLenient("06 g8") }
        #expect(Hex.DecodingError.invalidCharacter("g", offset: 3).description == "'g' at column 4 is not a hex digit")
    }

    @Test func refusesHalfAByte() {
        #expect(throws: Hex.DecodingError.oddDigitCount(3)) { try Hex.decodeLenient("064") }
    }

    @Test func strictDecodingRefusesSeparators() {
        var output: [UInt8] = []
        #expect(Hex.decodeStrict(Array("0648".utf8), into: &output) && output == [0x06, 0x48])
        var rejected: [UInt8] = []
        #expect(!Hex.decodeStrict(Array("06 4".utf8), into: &rejected))
        #expect(!Hex.decodeStrict(Array("064".utf8), into: &rejected))
    }

    /// One array decoded into line after line: longer, shorter, empty, upper case; refusals as strict.
    @Test func decodingReplacesWhatTheArrayHeld() {
        var output: [UInt8] = [0xFF]
        for (text, bytes) in [("0648", [0x06, 0x48]), ("16a0d501ff", [0x16, 0xA0, 0xD5, 0x01, 0xFF]), ("2A", [0x2A]), ("", [])] as [(String, [UInt8])] {
            let decoded = Array(text.utf8).withUnsafeBufferPointer { Hex.decodeStrict($0, replacing: &output) }
            #expect(decoded && output == bytes, "\(text)")
        }
        for text in ["06 4", "064", "0g"] {
            #expect(!Array(text.utf8).withUnsafeBufferPointer { Hex.decodeStrict($0, replacing: &output) }, "\(text)")
        }
    }

    @Test func encodesLowerCase() {
        #expect(Hex.encode([0x00, 0xAB, 0x0F]) == "00ab0f")
    }
}

@Suite struct BluetoothUUIDTests {
    @Test(arguments: ["2a37", "2A37", "0x2a37", "00002a37", "00002a37-0000-1000-8000-00805f9b34fb"])
    func acceptsEveryFormOfAnAssignedUUID(text: String) {
        #expect(BluetoothUUID(text) == .heartRateMeasurement)
    }

    @Test func keepsVendorUUIDsWhole() {
        let vendor = "6e40fc00-b5a3-f393-e0a9-e50e24dcca9e"
        #expect(BluetoothUUID(vendor.uppercased())?.shortForm == vendor)
        #expect(BluetoothUUID(vendor)?.fullForm == vendor)
        #expect(BluetoothUUID.heartRateService.fullForm == "0000180d-0000-1000-8000-00805f9b34fb")
    }

    /// The named UUIDs are written as literals: each must be what its assigned number encodes to.
    @Test(arguments: [
        (BluetoothUUID.heartRateService, 0x180D), (.heartRateMeasurement, 0x2A37), (.bodySensorLocation, 0x2A38),
        (.heartRateControlPoint, 0x2A39), (.batteryService, 0x180F), (.batteryLevel, 0x2A19),
    ] as [(BluetoothUUID, UInt16)])
    func namedUUIDsAreTheirAssignedNumbers(named: BluetoothUUID, assigned: UInt16) {
        #expect(named == BluetoothUUID(assigned: assigned))
    }

    @Test(arguments: ["", "2a3", "2a37x", "zz37", "00002a37-0000-1000-8000-00805f9b34f", "00002a37+0000-1000-8000-00805f9b34fb"])
    func refusesNonUUIDs(text: String) {
        #expect(BluetoothUUID(text) == nil)
    }
}
