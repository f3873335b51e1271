import BlueZ
import DBus
import Sensors
import Testing

@Suite struct ObjectTreeTests {
    static let adapter = "/org/bluez/hci0"
    static let device = "/org/bluez/hci0/dev_F1_5A_17_00_00_01"
    static let service = device + "/service000c"
    static let characteristic = service + "/char000d"

    static func interfaces(_ entries: [String: [String: BusValue]]) -> BusValue {
        .dictionary(keySignature: "s", valueSignature: "a{sv}", entries.sorted { $0.key < $1.key }.map {
            BusDictionaryEntry(.string($0.key), .propertyMap($0.value))
        })
    }

    static func populated() -> ObjectTree {
        var tree = ObjectTree()
        tree.addInterfaces(at: adapter, interfaces([BlueZNames.adapter: ["Powered": .boolean(true)]]))
        tree.addInterfaces(at: device, interfaces([BlueZNames.device: [
            "Address": .string("F1:5A:17:00:00:01"), "Adapter": .objectPath(adapter), "Connected": .boolean(true),
            "UUIDs": .strings([BluetoothUUID.heartRateService.fullForm]),
        ]]))
        tree.addInterfaces(at: service, interfaces([BlueZNames.gattService: [
            "UUID": .string(BluetoothUUID.heartRateService.fullForm), "Device": .objectPath(device),
        ]]))
        tree.addInterfaces(at: characteristic, interfaces([BlueZNames.gattCharacteristic: [
            "UUID": .string(BluetoothUUID.heartRateMeasurement.fullForm), "Service": .objectPath(service),
            "Flags": .strings(["notify"]), "NotifyAcquired": .boolean(false),
        ]]))
        return tree
    }

    @Test func findsTheMeasurementByUUIDUnderTheHeartRateService() {
        let tree = Self.populated()
        let found = tree.characteristic(.heartRateMeasurement, inService: .heartRateService, ofDevice: Self.device)
        #expect(found?.path == Self.characteristic)
        #expect(found?.supportsAcquireNotify == true)
        #expect(tree.characteristic(.heartRateMeasurement, inService: .batteryService, ofDevice: Self.device) == nil)
        #expect(tree.device(address: "f1:5a:17:00:00:01")?.advertisesHeartRate == true)
    }

    @Test func propertiesChangeAndInvalidate() {
        var tree = Self.populated()
        tree.changeProperties(at: Self.device, interface: BlueZNames.device, changed: ["Connected": .boolean(false)], invalidated: ["UUIDs"])
        #expect(tree.device(at: Self.device)?.connected == false)
        #expect(tree.device(at: Self.device)?.uuids == [])
        // A change for an interface the object does not (yet) have is ignored, not half-created.
        tree.changeProperties(at: "/org/bluez/hci9", interface: BlueZNames.adapter, changed: ["Powered": .boolean(true)], invalidated: [])
        #expect(tree.adapter(at: "/org/bluez/hci9") == nil)
    }

    @Test func removingAnAdapterDropsEverythingBelowIt() {
        var tree = Self.populated()
        tree.removeInterfaces(at: Self.adapter, [BlueZNames.adapter])
        #expect(tree.objects.isEmpty)
    }

    @Test func replayingSignalsOverANewerSnapshotConverges() {
        // Signals buffered before GetManagedObjects answered are applied after it: a repeat
        // InterfacesAdded merges, a later removal still removes.
        var snapshot = Self.populated()
        let managed = BusValue.dictionary(keySignature: "o", valueSignature: "a{sa{sv}}", snapshot.objects.sorted { $0.key < $1.key }.map { path, interfaces in
            BusDictionaryEntry(.objectPath(path), Self.interfaces(interfaces))
        })
        var tree = ObjectTree()
        tree.replaceAll(with: managed)
        #expect(tree.objects == snapshot.objects)
        tree.addInterfaces(at: Self.device, Self.interfaces([BlueZNames.device: ["Connected": .boolean(true)]]))
        tree.removeInterfaces(at: Self.characteristic, [BlueZNames.gattCharacteristic])
        snapshot.removeInterfaces(at: Self.characteristic, [BlueZNames.gattCharacteristic])
        #expect(tree.objects == snapshot.objects)
    }
}
