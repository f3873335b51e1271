/// A GATT UUID, kept in its shortest canonical text: 16-bit SIG-assigned UUIDs as four lower-case
/// hex digits (`2a37`), anything else as the full 36-character form.
public struct BluetoothUUID: Sendable, Hashable, CustomStringConvertible {
    public let shortForm: String

    /// Accepts `2a37`, `0x2A37`, `00002a37` and `00002a37-0000-1000-8000-00805f9b34fb`.
    public init?(_ text: String) {
        var hex = text.lowercased()
        if hex.hasPrefix("0x") { hex.removeFirst(2) }
        if hex.count == 36 {
            guard Self.isFullForm(hex) else { return nil }
            if hex.hasPrefix("0000"), hex.hasSuffix(Self.sigBaseSuffix) {
                hex = String(hex.dropFirst(4).prefix(4))
            } else {
                shortForm = hex
                return
            }
        } else if hex.count == 8, hex.hasPrefix("0000") {
            hex.removeFirst(4)
        }
        guard hex.count == 4, hex.utf8.allSatisfy({ Hex.nibble($0) != nil }) else { return nil }
        shortForm = hex
    }

    public init(assigned value: UInt16) {
        shortForm = Hex.encode([UInt8(value >> 8), UInt8(value & 0xFF)])
    }

    /// The 128-bit form BlueZ uses in its object properties.
    public var fullForm: String {
        shortForm.count == 4 ? "0000\(shortForm)\(Self.sigBaseSuffix)" : shortForm
    }

    public var description: String { shortForm }

    // Built from literals, not `static let`s: a stored static goes through its lazy initialisation
    // check (a call into `swift_once`) at every use, and 2a37 is used twice per notification. A
    // four-digit short form is a small string, kept in the value itself.
    public static var heartRateService: BluetoothUUID { BluetoothUUID(shortForm: "180d") }
    public static var heartRateMeasurement: BluetoothUUID { BluetoothUUID(shortForm: "2a37") }
    public static var bodySensorLocation: BluetoothUUID { BluetoothUUID(shortForm: "2a38") }
    public static var heartRateControlPoint: BluetoothUUID { BluetoothUUID(shortForm: "2a39") }
    public static var batteryService: BluetoothUUID { BluetoothUUID(shortForm: "180f") }
    public static var batteryLevel: BluetoothUUID { BluetoothUUID(shortForm: "2a19") }

    private init(shortForm: String) {
        self.shortForm = shortForm
    }

    private static let sigBaseSuffix = "-0000-1000-8000-00805f9b34fb"

    private static func isFullForm(_ text: String) -> Bool {
        for (offset, byte) in text.utf8.enumerated() {
            let isDash = [8, 13, 18, 23].contains(offset)
            if isDash ? byte != UInt8(ascii: "-") : Hex.nibble(byte) == nil { return false }
        }
        return true
    }
}
