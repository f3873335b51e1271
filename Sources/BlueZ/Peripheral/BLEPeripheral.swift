import DBus
import Platform
import Sensors
import Synchronization

/// hrbridge as a Bluetooth LE peripheral through bluetoothd: the GATT application
/// (`GattApplicationLayout`) and its advertisement (`AdvertisementLayout`) exported on our own bus
/// connection, registered with the adapter's GattManager1 and LEAdvertisingManager1, registered
/// again whenever bluetoothd comes back or the adapter is powered again (bluetoothd forgets both with
/// a restart, and the owner of a lost registration is the program, not bluetoothd), and unregistered
/// by `stop()`. A crashed run leaves nothing behind: bluetoothd drops an application and an
/// advertisement when their connection goes.
///
/// bluetoothd calls StartNotify once for each central that subscribes and StopNotify when it leaves;
/// a value is sent (PropertiesChanged of Value, which bluetoothd turns into a Handle Value
/// Notification to every subscribed central) only while someone listens.
public final class BLEPeripheral: Sendable {
    public struct Settings: Sendable {
        public var name: String
        /// `hci1`; nil: the first adapter bluetoothd lists that has the peripheral managers.
        public var adapter: String?
        /// Device Information's Manufacturer Name and Model Number.
        public var manufacturer = "hrbridge"
        public var model = "hrbridge"
        /// Between attempts while registration fails (bluetoothd starting, the adapter still off).
        public var retryDelay: Duration = .seconds(2)

        public init(name: String, adapter: String? = nil) {
            self.name = name
            self.adapter = adapter
        }
    }

    /// What the peripheral is doing, for status lines and metrics.
    public struct Snapshot: Sendable, Equatable {
        /// The adapter it is registered on (`hci0`); nil while it is not.
        public var adapter: String?
        /// Centrals subscribed to each measurement (one StartNotify each).
        public var heartRateSubscribers = 0
        public var runningSubscribers = 0
        /// Notifications handed to bluetoothd (each reaches every subscribed central).
        public var heartRateSent = 0
        public var runningSent = 0
        /// Why the last registration failed, until one succeeds.
        public var problem: String?

        public init() {}

        /// `advertising on hci0; heart rate: 2 centrals, 340 sent; running: 1 central, 80 sent`, or
        /// `not advertising: …` with the counts.
        public var summary: String {
            let counts = "heart rate: \(centrals(heartRateSubscribers)), \(heartRateSent) sent; running: \(centrals(runningSubscribers)), \(runningSent) sent"
            if let adapter { return "advertising on \(adapter); " + counts }
            return "not advertising: \(problem ?? "bluetoothd not ready"); " + counts
        }

        private func centrals(_ count: Int) -> String { count == 1 ? "1 central" : "\(count) centrals" }
    }

    public static let applicationRoot = "/io/hrbridge/gatt"
    public static let advertisementPath = "/io/hrbridge/advertisement"

    private struct State {
        var values: [GattApplicationLayout.Role: [UInt8]] = [:]
        var subscribers: [GattApplicationLayout.Role: Int] = [:]
        var snapshot = Snapshot()
        var stopping = false
    }

    private let connection: BusConnection
    private let settings: Settings
    private let layout = GattApplicationLayout(root: applicationRoot)
    public let advertisement: AdvertisementLayout
    private let log: @Sendable (String) -> Void
    private let state = Mutex(State())
    private let registrar: Registrar

    private init(connection: BusConnection, settings: Settings, advertisement: AdvertisementLayout, log: @escaping @Sendable (String) -> Void) {
        self.connection = connection
        self.settings = settings
        self.advertisement = advertisement
        self.log = log
        registrar = Registrar()
        state.withLock { state in
            state.values[.manufacturerName] = Array(settings.manufacturer.utf8)
            state.values[.modelNumber] = Array(settings.model.utf8)
            state.values[.bodySensorLocation] = [BodySensorLocation.other.code]
            state.values[.runningFeature] = Self.runningFeature
        }
    }

    /// RSC Feature: stride length, total distance, walking or running status (what a foot pod's
    /// measurement may carry; a treadmill's carries no stride).
    static let runningFeature: [UInt8] = [0x07, 0x00]

    /// Exports the objects and registers them; a first registration that fails is logged and tried
    /// again (bluetoothd may be starting), so only the bus itself can fail this.
    public static func start(on connection: BusConnection, settings: Settings,
                             log: @escaping @Sendable (String) -> Void) async throws(BusError) -> BLEPeripheral {
        let layout: AdvertisementLayout
        do {
            layout = try AdvertisementLayout(name: settings.name, services: GattApplicationLayout.advertisedServices,
                                             appearance: AdvertisementLayout.heartRateBelt)
        } catch {
            throw .invalidArgument("\(error)")
        }
        if layout.nameShortened { log("peripheral: the name '\(settings.name)' is advertised as '\(layout.name)' (the scan response holds \(AdvertisementLayout.budget - 2) bytes)") }
        let peripheral = BLEPeripheral(connection: connection, settings: settings, advertisement: layout, log: log)
        try await peripheral.export()
        try await connection.onSignals(matching: [
            .nameOwnerChanged(of: BlueZNames.busName),
            BusMatchRule(sender: BlueZNames.busName, interface: BusInterfaceName.properties, member: "PropertiesChanged",
                         pathNamespace: BlueZNames.root, firstArgument: BlueZNames.adapter),
            BusMatchRule(sender: BlueZNames.busName, interface: BusInterfaceName.objectManager, member: "InterfacesAdded"),
        ]) { [weak peripheral] signal in peripheral?.observe(signal) }
        await peripheral.registrar.start(peripheral)
        return peripheral
    }

    // MARK: - Values

    /// A measurement's new value: sent to the subscribed centrals, if any. Never repeated by the
    /// peripheral itself: when no value comes (the strap lost), nothing goes out, and it is not kept
    /// as the characteristic's Value, which a central connecting later could be handed.
    public func notify(_ role: GattApplicationLayout.Role, _ value: [UInt8]) {
        let send = state.withLock { state -> Bool in
            guard !state.stopping, state.snapshot.adapter != nil, state.subscribers[role, default: 0] > 0 else { return false }
            switch role {
            case .heartRateMeasurement: state.snapshot.heartRateSent += 1
            case .runningMeasurement: state.snapshot.runningSent += 1
            default: break
            }
            return true
        }
        if send { emitValue(role, value) }
    }

    /// A read value (the battery level, the body sensor location); nil: not known now, and a read
    /// answers an error rather than an old or made-up value. The battery notifies its subscribers.
    public func set(_ role: GattApplicationLayout.Role, _ value: [UInt8]?) {
        let send = state.withLock { state -> Bool in
            guard state.values[role] != value else { return false }
            state.values[role] = value
            return value != nil && role.notifies && state.subscribers[role, default: 0] > 0
        }
        if send, let value { emitValue(role, value) }
    }

    public var snapshot: Snapshot {
        state.withLock { state in
            var snapshot = state.snapshot
            snapshot.heartRateSubscribers = state.subscribers[.heartRateMeasurement, default: 0]
            snapshot.runningSubscribers = state.subscribers[.runningMeasurement, default: 0]
            return snapshot
        }
    }

    private func emitValue(_ role: GattApplicationLayout.Role, _ value: [UInt8]) {
        guard let characteristic = layout.characteristic(role) else { return }
        try? connection.emitSignal(path: characteristic.path, interface: BusInterfaceName.properties, member: "PropertiesChanged", arguments: [
            .string(BlueZNames.gattCharacteristic), .propertyMap(["Value": .bytes(value)]), .strings([]),
        ])
    }

    // MARK: - Ending

    /// Unregisters the advertisement and the application (within `timeout` each: a wedged bluetoothd
    /// must not hold the run's end), then closes the connection, which bluetoothd also takes as the end.
    public func stop(timeout: Duration = .seconds(3)) async {
        let adapter = state.withLock { state in
            state.stopping = true
            return state.snapshot.adapter
        }
        await registrar.stop()
        if let adapter {
            let bus = BlueZBus(connection)
            let path = BlueZNames.root + "/" + adapter
            do {
                try await bus.call(path, BlueZNames.advertisingManager, "UnregisterAdvertisement", [.objectPath(Self.advertisementPath)], timeout: timeout)
                try await bus.call(path, BlueZNames.gattManager, "UnregisterApplication", [.objectPath(Self.applicationRoot)], timeout: timeout)
            } catch {
                log("peripheral: unregistering from \(adapter): \(error) (closing the connection ends it too)")
            }
        }
        await connection.close()
    }

    // MARK: - On the bus queue

    private func export() async throws(BusError) {
        let objectManager = BusInterfaceDescription(name: BusInterfaceName.objectManager, methods: [
            .init("GetManagedObjects", outputs: [.init("objects", "a{oa{sa{sv}}}")]),
        ])
        try await connection.export(BusExportedObject(path: layout.root, interfaces: [objectManager]) { [self] call in
            call.reply([managedObjects()])
        })
        for service in layout.services {
            let description = BusInterfaceDescription(name: BlueZNames.gattService, properties: [
                .init("UUID", "s"), .init("Primary", "b"),
            ])
            try await connection.export(BusExportedObject(path: service.path, interfaces: [description],
                                                          properties: { [layout] _ in layout.properties(of: service) }) { _ in })
        }
        for characteristic in layout.characteristics {
            try await connection.export(exported(characteristic))
        }
        let advertisementInterface = BusInterfaceDescription(name: BlueZNames.advertisement, methods: [.init("Release")], properties: [
            .init("Type", "s"), .init("ServiceUUIDs", "as"), .init("Appearance", "q"), .init("LocalName", "s"), .init("Discoverable", "b"),
        ])
        // bluetoothd reads an advertisement through GetManagedObjects on the advertisement's own path.
        try await connection.export(BusExportedObject(path: Self.advertisementPath, interfaces: [advertisementInterface, objectManager],
                                                      properties: { [advertisement] _ in advertisement.properties }) { [self] call in
            if call.member == "Release" {
                log("peripheral: bluetoothd released the advertisement")
                state.withLock { $0.snapshot.adapter = nil }
                call.reply()
                // bluetoothd releases it as it stops, or as the adapter goes: a registration at once
                // would race its exit. The next attempt comes after the retry delay, or sooner on
                // its return or the adapter's.
                Task { await registrar.retry(self, waitFirst: true) }
                return
            }
            call.reply([.dictionary(keySignature: "o", valueSignature: "a{sa{sv}}", [
                GattApplicationLayout.object(Self.advertisementPath, BlueZNames.advertisement, advertisement.properties),
            ])])
        })
    }

    private func managedObjects() -> BusValue {
        let (values, subscribers) = state.withLock { ($0.values, $0.subscribers) }
        return layout.managedObjects(value: { values[$0] }, notifying: { subscribers[$0, default: 0] > 0 })
    }

    private func exported(_ characteristic: GattApplicationLayout.Characteristic) -> BusExportedObject {
        let role = characteristic.role
        let description = BusInterfaceDescription(name: BlueZNames.gattCharacteristic, methods: [
            .init("ReadValue", inputs: [.init("options", "a{sv}")], outputs: [.init("value", "ay")]),
            .init("StartNotify"), .init("StopNotify"),
        ], properties: [.init("UUID", "s"), .init("Service", "o"), .init("Flags", "as"), .init("Value", "ay"), .init("Notifying", "b")])
        return BusExportedObject(path: characteristic.path, interfaces: [description], properties: { [self, layout] _ in
            let (value, notifying) = state.withLock { ($0.values[role], $0.subscribers[role, default: 0] > 0) }
            return layout.properties(of: characteristic, value: value, notifying: notifying)
        }) { [self] call in
            switch call.member {
            case "ReadValue" where role.flags.contains("read"):
                guard let value = state.withLock({ $0.values[role] }) else {
                    return call.fail("org.bluez.Error.Failed", "\(role.rawValue): not known now")
                }
                call.reply([.bytes(value)])
            case "StartNotify" where role.notifies:
                let (count, value) = state.withLock { state in
                    state.subscribers[role, default: 0] += 1
                    return (state.subscribers[role, default: 0], state.values[role])
                }
                log("peripheral: a central subscribed to \(role.rawValue) (\(count) now)")
                call.reply()
                // A battery level is a state: a new subscriber gets it at once. A measurement is not
                // repeated: it waits for the next sample.
                if role == .batteryLevel, let value { emitValue(role, value) }
            case "StopNotify" where role.notifies:
                let count = state.withLock { state in
                    state.subscribers[role] = max(0, state.subscribers[role, default: 0] - 1)
                    return state.subscribers[role, default: 0]
                }
                log("peripheral: a central left \(role.rawValue) (\(count) now)")
                call.reply()
            default:
                call.fail("org.bluez.Error.NotSupported", "\(role.rawValue) does not \(call.member)")
            }
        }
    }

    /// bluetoothd's name and its adapters' power: either coming back means registering again.
    private func observe(_ signal: BusMessage) {
        switch signal.member {
        case "NameOwnerChanged":
            let owner = signal.body.count == 3 ? signal.body[2].string ?? "" : ""
            forgetRegistration(owner.isEmpty ? "bluetoothd stopped" : nil)
            guard !owner.isEmpty else { return }
            log("peripheral: bluetoothd is back; registering again")
        case "PropertiesChanged":
            guard let adapter = signal.path?.split(separator: "/").last.map(String.init), wanted(adapter),
                  let powered = signal.body.dropFirst().first?.stringKeyedDictionary?["Powered"]?.bool else { return }
            guard powered else { return forgetRegistration(nil) }
            log("peripheral: \(adapter) is powered again; registering again")
        case "InterfacesAdded":
            guard let interfaces = signal.body.dropFirst().first?.stringKeyedDictionary, interfaces[BlueZNames.adapter] != nil else { return }
        default:
            return
        }
        Task { await registrar.retry(self) }
    }

    /// Subscriptions end with bluetoothd (or the adapter's links); a central that comes back subscribes again.
    private func forgetRegistration(_ why: String?) {
        state.withLock { state in
            state.subscribers = [:]
            if why != nil { state.snapshot.adapter = nil }
        }
        if let why { log("peripheral: \(why); the advertisement is gone until it is back") }
    }

    private func wanted(_ adapter: String) -> Bool {
        if let chosen = settings.adapter { return adapter == chosen }
        return state.withLock { $0.snapshot.adapter } ?? adapter == adapter
    }

    fileprivate enum Attempt {
        case registered
        case failed
        /// Nobody owns org.bluez: the next attempt waits for its NameOwnerChanged. A call to the
        /// name meanwhile would only ask the bus to start bluetoothd (D-Bus activation), which the
        /// service manager owns.
        case bluetoothdAbsent
    }

    /// One attempt: the adapter, then the application and the advertisement on it. AlreadyExists
    /// is ours from before (bluetoothd kept it across a power cycle): registered.
    fileprivate func register() async -> Attempt {
        guard !state.withLock({ $0.stopping }) else { return .registered }
        guard ((try? await connection.owner(of: BlueZNames.busName)) ?? nil) != nil else {
            _ = failed("bluetoothd is not running")
            return .bluetoothdAbsent
        }
        let bus = BlueZBus(connection)
        let adapter: String
        do {
            adapter = try await chooseAdapter(bus)
        } catch {
            return failed("\(error)")
        }
        let path = BlueZNames.root + "/" + adapter
        do {
            try await tolerateExisting { () async throws(BusError) in
                try await bus.call(path, BlueZNames.gattManager, "RegisterApplication", [.objectPath(Self.applicationRoot), .propertyMap([:])])
            }
        } catch {
            return failed("\(adapter) refused the GATT application: \(error)")
        }
        do {
            try await tolerateExisting { () async throws(BusError) in
                try await bus.call(path, BlueZNames.advertisingManager, "RegisterAdvertisement",
                                   [.objectPath(Self.advertisementPath), .propertyMap([:])])
            }
        } catch {
            return failed("\(adapter) cannot advertise (\(error)); centrals cannot find the peripheral. "
                + "An adapter that cannot advertise while it is connected as a central needs a second adapter: set the sink's adapter")
        }
        let first = state.withLock { state in
            defer { state.snapshot.adapter = adapter; state.snapshot.problem = nil }
            return state.snapshot.adapter == nil
        }
        if first {
            log("peripheral: advertising '\(advertisement.name)' (heart rate 0x180D, running speed 0x1814) on \(adapter)")
        }
        return .registered
    }

    private func failed(_ problem: String) -> Attempt {
        let new = state.withLock { state in
            defer { state.snapshot.problem = problem; state.snapshot.adapter = nil }
            return state.snapshot.problem != problem
        }
        if new { log("peripheral: \(problem); trying again") }
        return .failed
    }

    private func tolerateExisting(_ call: () async throws(BusError) -> Void) async throws(BusError) {
        do {
            try await call()
        } catch where error.name == BlueZNames.alreadyExists {
            return
        }
    }

    /// Why no adapter was chosen.
    private struct NoAdapter: Error, CustomStringConvertible {
        let description: String
    }

    private func chooseAdapter(_ bus: BlueZBus) async throws -> String {
        var tree = ObjectTree()
        tree.replaceAll(with: try await bus.managedObjects())
        let able = tree.objects.filter { _, interfaces in
            interfaces[BlueZNames.gattManager] != nil && interfaces[BlueZNames.advertisingManager] != nil
        }.keys.compactMap { $0.split(separator: "/").last.map(String.init) }.sorted()
        if let chosen = settings.adapter {
            guard able.contains(chosen) else {
                throw NoAdapter(description: "no adapter \(chosen) that can be a peripheral (bluetoothd has \(able.isEmpty ? "none" : able.joined(separator: ", ")))")
            }
            return chosen
        }
        guard let first = able.first else { throw NoAdapter(description: "bluetoothd has no adapter that can be a peripheral yet") }
        return first
    }

    fileprivate var retryDelay: Duration { settings.retryDelay }
}

/// Registration attempts one at a time, and again after `retryDelay` until one succeeds; a trigger
/// (bluetoothd back, the adapter powered) while one runs makes it run once more.
private actor Registrar {
    private var running = false
    private var again = false
    private var stopped = false

    /// The first attempt, awaited (a run says at once whether it advertises); later ones on a task.
    func start(_ peripheral: BLEPeripheral) async {
        running = true
        let attempt = await peripheral.register()
        running = false
        if attempt == .failed || again { Task { await self.retry(peripheral, waitFirst: attempt == .failed) } }
    }

    func retry(_ peripheral: BLEPeripheral, waitFirst: Bool = false) async {
        guard !stopped else { return }
        guard !running else {
            again = true
            return
        }
        running = true
        defer { running = false }
        var wait = waitFirst
        repeat {
            again = false
            if wait {
                guard (try? await TaskSleep.sleep(for: peripheral.retryDelay)) != nil, !stopped else { return }
            }
            let attempt = await peripheral.register()
            wait = attempt == .failed
        } while (again || wait) && !stopped
    }

    func stop() { stopped = true }
}
