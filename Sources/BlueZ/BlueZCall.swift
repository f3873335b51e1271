import DBus

/// The one way the interface files call bluetoothd: destination, timeout and error shape
/// in one place.
public struct BlueZBus: Sendable {
    public let connection: BusConnection

    public init(_ connection: BusConnection) { self.connection = connection }

    /// Default: a method BlueZ answers at once (properties, StartNotify, ReadValue on a live link).
    public static let quickTimeout: Duration = .seconds(10)

    @discardableResult
    public func call(_ path: String, _ interface: String, _ method: String, _ arguments: [BusValue] = [],
                     timeout: Duration = quickTimeout) async throws(BusError) -> [BusValue] {
        try await connection.call(
            BusMethodCall(destination: BlueZNames.busName, path: path, interface: interface, method: method, arguments: arguments),
            timeout: timeout
        )
    }

    /// A call whose reply nobody waits for (`BusConnection.sendWithoutReply`).
    public func send(_ path: String, _ interface: String, _ method: String, _ arguments: [BusValue] = []) async throws(BusError) {
        try await connection.sendWithoutReply(
            BusMethodCall(destination: BlueZNames.busName, path: path, interface: interface, method: method, arguments: arguments)
        )
    }

    public func managedObjects() async throws(BusError) -> BusValue {
        let reply = try await call("/", BusInterfaceName.objectManager, "GetManagedObjects")
        return reply.first ?? .dictionary(keySignature: "o", valueSignature: "a{sa{sv}}", [])
    }
}
