import DBus
import Sensors

/// What the peripheral's advertisement carries, laid out as bluetoothd lays out a legacy advertising
/// set (31 bytes of advertising data, 31 of scan response): the flags, the services' 16-bit UUIDs and
/// the appearance in the advertising data; the name in the scan response, which is where bluetoothd
/// puts an advertisement's LocalName. Pure: the budget is checked here, where a test reads the bytes,
/// rather than found out from a central that sees a cut advertisement.
public struct AdvertisementLayout: Sendable, Equatable {
    /// A legacy advertising PDU's data, and its scan response's: controllers without extended
    /// advertising (most laptop adapters) have nothing more.
    public static let budget = 31
    /// Heart Rate Sensor: Heart Rate Belt (Assigned Numbers, Appearance Values): what Zwift, watches
    /// and consoles show a strap as.
    public static let heartRateBelt: UInt16 = 0x0341

    public let services: [BluetoothUUID]
    public let appearance: UInt16
    /// The name as advertised: cut at a character boundary to what the scan response holds.
    public let name: String
    /// The name given did not fit and `name` is its beginning (AD type Shortened Local Name).
    public let nameShortened: Bool

    public init(name: String, services: [BluetoothUUID], appearance: UInt16) throws(AdvertisementLayoutError) {
        guard services.allSatisfy({ $0.assignedNumber != nil }) else { throw .notSixteenBit(services.filter { $0.assignedNumber == nil }) }
        self.services = services
        self.appearance = appearance
        let room = Self.budget - Self.fieldHeader
        var kept = ""
        for character in name {
            guard kept.utf8.count + character.utf8.count <= room else { break }
            kept.append(character)
        }
        guard !kept.isEmpty else { throw .emptyName }
        self.name = kept
        nameShortened = kept != name
        guard advertisingData.count <= Self.budget else { throw .tooManyServices(advertisingData.count) }
    }

    /// Flags: LE General Discoverable, BR/EDR not supported (bluetoothd sets them for `Discoverable`);
    /// Complete List of 16-bit Service UUIDs; Appearance. Little-endian, as on the air.
    public var advertisingData: [UInt8] {
        var uuids: [UInt8] = []
        for service in services { if let number = service.assignedNumber { uuids += [UInt8(number & 0xFF), UInt8(number >> 8)] } }
        return Self.field(Self.flagsType, [Self.generalDiscoverable | Self.noBREDR])
            + Self.field(Self.completeUUID16Type, uuids)
            + Self.field(Self.appearanceType, [UInt8(appearance & 0xFF), UInt8(appearance >> 8)])
    }

    /// Complete (or Shortened) Local Name.
    public var scanResponse: [UInt8] {
        Self.field(nameShortened ? Self.shortenedNameType : Self.completeNameType, Array(name.utf8))
    }

    /// org.bluez.LEAdvertisement1's properties for this layout (bluez doc/org.bluez.LEAdvertisement.rst).
    public var properties: [String: BusValue] {
        [
            "Type": .string("peripheral"),
            "ServiceUUIDs": .strings(services.map(\.fullForm)),
            "Appearance": .uint16(appearance),
            "LocalName": .string(name),
            // Without it the flags carry no LE General Discoverable bit, and phones' scanners skip the device.
            "Discoverable": .boolean(true),
        ]
    }

    /// A field's length byte and type byte.
    static let fieldHeader = 2
    static let flagsType: UInt8 = 0x01
    static let completeUUID16Type: UInt8 = 0x03
    static let shortenedNameType: UInt8 = 0x08
    static let completeNameType: UInt8 = 0x09
    static let appearanceType: UInt8 = 0x19
    static let generalDiscoverable: UInt8 = 0x02
    static let noBREDR: UInt8 = 0x04

    static func field(_ type: UInt8, _ data: [UInt8]) -> [UInt8] {
        [UInt8(data.count + 1), type] + data
    }
}

public enum AdvertisementLayoutError: Error, Sendable, Equatable, CustomStringConvertible {
    case emptyName
    case notSixteenBit([BluetoothUUID])
    case tooManyServices(Int)

    public var description: String {
        switch self {
        case .emptyName: "the advertised name is empty"
        case let .notSixteenBit(services): "only 16-bit services fit the advertisement (\(services.map(\.description).joined(separator: ", ")))"
        case let .tooManyServices(bytes): "the advertising data would take \(bytes) bytes of \(AdvertisementLayout.budget)"
        }
    }
}

extension BluetoothUUID {
    /// The 16-bit number of a SIG-assigned UUID (`180d`), nil for a 128-bit one.
    public var assignedNumber: UInt16? {
        shortForm.count == 4 ? UInt16(shortForm, radix: 16) : nil
    }
}
