import DBus
import Platform
import Sensors
import Synchronization

/// The one mirror of bluetoothd per process (bleak's "manager"): match rules first, then
/// GetManagedObjects, then every signal applied in arrival order. When bluetoothd leaves the
/// bus the tree is dropped; when it returns the tree is rebuilt. Links read the tree, wait on
/// conditions over it, and receive characteristic values routed by path.
public actor BlueZClient {
    public nonisolated let bus: BlueZBus
    private let clock: @Sendable () -> Timestamp
    public private(set) var tree = ObjectTree()
    /// Whether bluetoothd owns `org.bluez` right now.
    public private(set) var isBlueZRunning = false
    /// The bus connection ended; nothing will change any more.
    public private(set) var isConnectionLost = false

    private var waiters: [UInt64: Waiter] = [:]
    private nonisolated let routes = ValueRoutes()
    private var observers: [UInt64: @Sendable () -> Void] = [:]
    private var nextID: UInt64 = 0
    /// Links scanning on each adapter (by path). Discovery is one session per bus client, which
    /// a run's links share: the last of them to find its sensor stops it. Were the first to find one
    /// to stop it for all, the others would wait a whole discovery window (10 s) without a scan: two
    /// straps starting together would connect 11 s apart.
    private var scanners: [String: Int] = [:]

    /// A link scans on `adapter`.
    func joinScan(_ adapter: String) { scanners[adapter, default: 0] += 1 }

    /// A link stopped scanning on `adapter`; true when it was the last (discovery may stop).
    func leaveScan(_ adapter: String) -> Bool {
        let left = (scanners[adapter] ?? 1) - 1
        scanners[adapter] = left > 0 ? left : nil
        return left <= 0
    }

    public struct ValueArrival: Sendable {
        public var characteristicPath: String
        public var value: [UInt8]
        public var time: Timestamp
    }

    private struct Waiter {
        let check: (ObjectTree, Bool) -> Bool
    }

    private init(bus: BlueZBus, clock: @escaping @Sendable () -> Timestamp) {
        self.bus = bus
        self.clock = clock
    }

    /// Subscribes, takes the snapshot and starts following bluetoothd.
    public static func start(on connection: BusConnection, clock: @escaping @Sendable () -> Timestamp) async throws(BusError) -> BlueZClient {
        let client = BlueZClient(bus: BlueZBus(connection), clock: clock)
        let signals = try await connection.signals(matching: [
            BusMatchRule(sender: BlueZNames.busName, interface: BusInterfaceName.objectManager),
            BusMatchRule(sender: BlueZNames.busName, interface: BusInterfaceName.properties, member: "PropertiesChanged", pathNamespace: BlueZNames.root),
            .nameOwnerChanged(of: BlueZNames.busName),
        ])
        // Values take a short cut: routed on the bus queue as they are dispatched, not through
        // this actor (the tree's copy of Value is never read).
        try await connection.onSignals(matching: [
            BusMatchRule(sender: BlueZNames.busName, interface: BusInterfaceName.properties, member: "PropertiesChanged",
                         pathNamespace: BlueZNames.root, firstArgument: BlueZNames.gattCharacteristic),
        ]) { [routes = client.routes] message in
            guard let path = message.path, message.body.count >= 2,
                  let value = message.body[1].stringKeyedDictionary?["Value"]?.bytes else { return }
            routes.deliver(ValueArrival(characteristicPath: path, value: value, time: clock()))
        }
        let owner = try await connection.owner(of: BlueZNames.busName)
        // Refused by the system bus policy (not in group 'bluetooth'): say so now, not never.
        if let error = await client.begin(running: owner != nil), error.name == BusErrorName.accessDenied {
            throw error
        }
        Task { await client.follow(signals) }
        return client
    }

    private func begin(running: Bool) async -> BusError? {
        isBlueZRunning = running
        return running ? await takeSnapshot() : nil
    }

    @discardableResult
    private func takeSnapshot() async -> BusError? {
        defer { treeChanged() }
        do {
            tree.replaceAll(with: try await bus.managedObjects())
            return nil
        } catch {
            // bluetoothd may be half started; InterfacesAdded will fill the tree in.
            return error
        }
    }

    private func follow(_ signals: AsyncStream<BusMessage>) async {
        for await message in signals { await apply(message) }
        isConnectionLost = true
        isBlueZRunning = false
        tree.removeAll()
        treeChanged()
    }

    private func apply(_ message: BusMessage) async {
        let body = message.body
        switch (message.interface, message.member) {
        case (BusInterfaceName.properties, "PropertiesChanged"):
            guard let path = message.path, body.count >= 2, let interface = body[0].string else { return }
            let changed = body[1].stringKeyedDictionary ?? [:]
            let invalidated = body.count > 2 ? body[2].strings ?? [] : []
            tree.changeProperties(at: path, interface: interface, changed: changed, invalidated: invalidated)
            if changed.keys.contains(where: { $0 != "Value" }) || !invalidated.isEmpty { treeChanged() }
        case (BusInterfaceName.objectManager, "InterfacesAdded"):
            guard body.count >= 2, let path = body[0].string else { return }
            tree.addInterfaces(at: path, body[1])
            treeChanged()
        case (BusInterfaceName.objectManager, "InterfacesRemoved"):
            guard body.count >= 2, let path = body[0].string else { return }
            tree.removeInterfaces(at: path, body[1].strings ?? [])
            treeChanged()
        case (BusInterfaceName.daemon, "NameOwnerChanged"):
            let newOwner = body.count > 2 ? body[2].string ?? "" : ""
            // Every path we hold is void either way: a new bluetoothd numbers things afresh.
            tree.removeAll()
            isBlueZRunning = !newOwner.isEmpty
            treeChanged()
            if isBlueZRunning { await takeSnapshot() }
        default:
            break
        }
    }

    private func treeChanged() {
        for observer in observers.values { observer() }
        for (id, waiter) in waiters where waiter.check(tree, isBlueZRunning) { waiters.removeValue(forKey: id) }
    }

    // MARK: - For links

    /// Waits until `condition` answers non-nil (checked now and after every change), the
    /// timeout passes (nil) or the task is cancelled (nil).
    public func wait<T: Sendable>(
        timeout: Duration?, for condition: @escaping @Sendable (ObjectTree, _ isBlueZRunning: Bool) -> T?
    ) async -> T? {
        if let found = condition(tree, isBlueZRunning) { return found }
        let id = nextID
        nextID += 1
        let outcome = Outcome<T>()
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<T?, Never>) in
                outcome.continuation = continuation
                waiters[id] = Waiter { tree, running in
                    guard let found = condition(tree, running) else { return false }
                    outcome.finish(found)
                    return true
                }
                if let timeout {
                    outcome.timeout = Task { [weak self] in
                        do { try await TaskSleep.sleep(for: timeout) } catch { return } // found first
                        await self?.expire(id, outcome)
                    }
                }
                if Task.isCancelled { expire(id, outcome) }
            }
        } onCancel: {
            Task { await self.expire(id, outcome) }
        }
    }

    private func expire<T: Sendable>(_ id: UInt64, _ outcome: Outcome<T>) {
        waiters.removeValue(forKey: id)
        outcome.finish(nil)
    }

    /// Values of every characteristic under the device at `devicePath` (PropertiesChanged)
    /// go to `sink`: one route per device, registered before Connect so that a value sent as
    /// soon as the services resolve is not missed.
    public nonisolated func route(_ devicePath: String, to sink: @escaping @Sendable (ValueArrival) -> Void) {
        routes.set(devicePath, sink)
    }

    public nonisolated func unroute(_ devicePath: String) { routes.set(devicePath, nil) }

    /// `/org/bluez/hci0/dev_…` from any path below it.
    static func devicePath(of path: String) -> String {
        var slashes = 0
        for index in path.indices where path[index] == "/" {
            slashes += 1
            if slashes == 5 { return String(path[..<index]) }
        }
        return path
    }

    /// `ping` runs after every change of the tree except bare Value updates.
    public func observe(_ ping: @escaping @Sendable () -> Void) -> UInt64 {
        let id = nextID
        nextID += 1
        observers[id] = ping
        return id
    }

    public func stopObserving(_ id: UInt64) { observers.removeValue(forKey: id) }
}

/// Resumes a waiting continuation exactly once (condition met, timeout, or cancellation).
private final class Outcome<T: Sendable>: @unchecked Sendable {
    var continuation: CheckedContinuation<T?, Never>?
    /// The wait's timeout, cancelled when it ends otherwise: a link waits for a device or its
    /// services with a timeout of many seconds, and an uncancelled one would fire mid-stream.
    var timeout: Task<Void, Never>?

    func finish(_ value: T?) {
        timeout?.cancel()
        timeout = nil
        guard let continuation else { return }
        self.continuation = nil
        continuation.resume(returning: value)
    }
}

/// Device path → where its characteristic values go; read on the bus queue, written by links.
final class ValueRoutes: Sendable {
    private let sinks = Mutex<[String: @Sendable (BlueZClient.ValueArrival) -> Void]>([:])

    func set(_ devicePath: String, _ sink: (@Sendable (BlueZClient.ValueArrival) -> Void)?) {
        sinks.withLock { $0[devicePath] = sink }
    }

    func deliver(_ arrival: BlueZClient.ValueArrival) {
        let devicePath = BlueZClient.devicePath(of: arrival.characteristicPath)
        guard let sink = sinks.withLock({ $0[devicePath] }) else { return }
        sink(arrival)
    }
}
