import Sensors
import Testing
@testable import Trace

@Suite struct ATTPDUTests {
    static let sigCharacteristicDeclaration = "fb349b5f80000080001000000328 0000"
    static let nordicUARTTransmit = "9ecadc240ee5a9e093f3a3b50300406e" // 6e400003-b5a3-f393-e0a9-e50e24dcca9e

    @Test(arguments: [
        ("1b 2a00 16480003", ATTPDU.values([.init(handle: 0x002a, value: [0x16, 0x48, 0x00, 0x03])])),
        ("1d 2d00 37", .values([.init(handle: 0x002d, value: [0x37])])),
        ("1b 2a00", .values([.init(handle: 0x002a, value: [])])),
        ("23 2a00 0200 0648 2d00 0100 37 3000 0000", .values([
            .init(handle: 0x002a, value: [0x06, 0x48]), .init(handle: 0x002d, value: [0x37]), .init(handle: 0x0030, value: []),
        ])),
        ("08 0100 ffff 0328", .readByTypeRequest(type: BluetoothUUID(assigned: 0x2803))),
        ("08 0100 ffff " + sigCharacteristicDeclaration, .readByTypeRequest(type: BluetoothUUID(assigned: 0x2803))),
        ("08 0100 ffff " + nordicUARTTransmit, .readByTypeRequest(type: BluetoothUUID("6e400003-b5a3-f393-e0a9-e50e24dcca9e")!)),
        ("09 07 2900 10 2a00 372a 2c00 02 2d00 382a", .readByTypeResponse([
            .init(handle: 0x0029, value: [0x10, 0x2a, 0x00, 0x37, 0x2a]),
            .init(handle: 0x002c, value: [0x02, 0x2d, 0x00, 0x38, 0x2a]),
        ])),
        ("01 08 2e00 0a", .errorResponse),
        ("0a 2d00", .other), // Read Request
        ("52 2c00 0100", .other), // Write Command
    ])
    func decodesPDUs(hex: String, expected: ATTPDU) throws {
        #expect(ATTPDU(try Hex.decodeLenient(hex)) == expected)
    }

    @Test(arguments: [
        "",                          // no opcode
        "1b 2a",                     // a notification without its whole handle
        "23",                        // multiple notifications of nothing
        "23 2a00 0300 0648",         // … or of a value shorter than its length
        "23 2a00 0200 0648 2d",      // … or with a cut-off second handle
        "08 0100 ffff 03",           // a type of neither 2 nor 16 bytes
        "09 07 2900 10 2a00 372a 2c", // a list that is not whole entries
        "09 01 2900",                // an entry shorter than its handle
        "09 07",                     // no entries
    ])
    func rejectsMalformedPDUs(hex: String) throws {
        #expect(ATTPDU(try Hex.decodeLenient(hex)) == nil)
    }
}
