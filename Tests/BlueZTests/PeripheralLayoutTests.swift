import BlueZ
import DBus
import Sensors
import Testing

@Suite struct AdvertisementLayoutTests {
    static let services = GattApplicationLayout.advertisedServices

    @Test func advertisingDataHoldsFlagsServicesAndAppearance() throws {
        let layout = try AdvertisementLayout(name: "hrbridge", services: Self.services, appearance: AdvertisementLayout.heartRateBelt)
        #expect(layout.advertisingData == [0x02, 0x01, 0x06, 0x05, 0x03, 0x0D, 0x18, 0x14, 0x18, 0x03, 0x19, 0x41, 0x03])
        #expect(layout.scanResponse == [0x09, 0x09] + Array("hrbridge".utf8))
        #expect(!layout.nameShortened)
    }

    @Test func theLongestNameFitsTheScanResponseWhole() throws {
        let name = String(repeating: "n", count: 29)
        let layout = try AdvertisementLayout(name: name, services: Self.services, appearance: AdvertisementLayout.heartRateBelt)
        #expect(layout.name == name && !layout.nameShortened && layout.scanResponse.count == AdvertisementLayout.budget)
    }

    @Test func aLongerNameIsShortenedAtACharacterBoundary() throws {
        // 28 bytes of ASCII, then a 2-byte character that would end at byte 30.
        let layout = try AdvertisementLayout(name: String(repeating: "a", count: 28) + "é and more", services: Self.services,
                                             appearance: AdvertisementLayout.heartRateBelt)
        #expect(layout.name == String(repeating: "a", count: 28))
        #expect(layout.nameShortened && layout.scanResponse[1] == 0x08 && layout.scanResponse.count <= AdvertisementLayout.budget)
    }

    @Test func servicesBeyondTheBudgetAreRefused() {
        let many = (0 ..< 14).map { BluetoothUUID(assigned: 0x1800 + UInt16($0)) }
        #expect(throws: AdvertisementLayoutError.tooManyServices(3 + 30 + 4)) {
            try AdvertisementLayout(name: "x", services: many, appearance: 0)
        }
        #expect(throws: AdvertisementLayoutError.emptyName) { try AdvertisementLayout(name: "", services: [], appearance: 0) }
    }

    @Test func propertiesSayWhatBlueZNeeds() throws {
        let properties = try AdvertisementLayout(name: "Strap", services: Self.services, appearance: AdvertisementLayout.heartRateBelt).properties
        #expect(properties["Type"] == .string("peripheral"))
        #expect(properties["ServiceUUIDs"] == .strings([BluetoothUUID.heartRateService.fullForm, "00001814-0000-1000-8000-00805f9b34fb"]))
        #expect(properties["Appearance"] == .uint16(0x0341) && properties["LocalName"] == .string("Strap"))
        #expect(properties["Discoverable"] == .boolean(true))
    }
}

@Suite struct GattApplicationLayoutTests {
    let layout = GattApplicationLayout(root: "/app")

    @Test func servesHeartRateBatteryDeviceInformationAndRunning() {
        #expect(layout.services.map(\.uuid.shortForm) == ["180d", "180f", "180a", "1814"])
        #expect(layout.characteristics.map(\.role.uuid.shortForm) == ["2a37", "2a38", "2a19", "2a29", "2a24", "2a53", "2a54"])
        #expect(layout.characteristic(.heartRateMeasurement)?.path == "/app/service0/char0")
        #expect(layout.characteristic(.runningMeasurement)?.service == "/app/service3")
    }

    @Test func measurementsNotifyOnly() {
        #expect(GattApplicationLayout.Role.heartRateMeasurement.flags == ["notify"])
        #expect(GattApplicationLayout.Role.runningMeasurement.flags == ["notify"])
        #expect(GattApplicationLayout.Role.batteryLevel.flags == ["read", "notify"])
        #expect(GattApplicationLayout.Role.bodySensorLocation.flags == ["read"])
    }

    @Test func managedObjectsListEveryObjectWithItsInterface() throws {
        let objects = layout.managedObjects(value: { $0 == .bodySensorLocation ? [1] : nil }, notifying: { $0 == .heartRateMeasurement })
        guard case let .dictionary(_, _, entries) = objects else { Issue.record("not a dictionary"); return }
        #expect(entries.count == 4 + 7)
        let byPath = Dictionary(uniqueKeysWithValues: entries.map { ($0.key.string!, $0.value.stringKeyedDictionary!) })
        let measurement = try #require(byPath["/app/service0/char0"]?[BlueZNames.gattCharacteristic]?.stringKeyedDictionary)
        #expect(measurement["Notifying"]?.bool == true && measurement["Value"] == nil)
        #expect(measurement["Service"]?.unwrapped == .objectPath("/app/service0"))
        let location = try #require(byPath["/app/service0/char1"]?[BlueZNames.gattCharacteristic]?.stringKeyedDictionary)
        #expect(location["Value"]?.bytes == [1] && location["Notifying"] == nil)
        #expect(byPath["/app/service1"]?[BlueZNames.gattService]?.stringKeyedDictionary?["UUID"]?.string == BluetoothUUID.batteryService.fullForm)
    }
}
