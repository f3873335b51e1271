import CDBus
import Dispatch

/// One private connection to a message bus. Every libdbus call for it runs on `queue`: the
/// socket is watched with DispatchSources and libdbus's timeouts are DispatchSource timers,
/// so nothing polls and no thread blocks. Replies resume async callers; signals go to
/// subscriptions in arrival order.
public final class BusConnection: @unchecked Sendable {
    public enum Bus: Sendable, CustomStringConvertible {
        /// The system bus; libdbus honours `DBUS_SYSTEM_BUS_ADDRESS`.
        case system
        case session
        case address(String)

        public var description: String {
            switch self {
            case .system: "the system bus"
            case .session: "the session bus"
            case let .address(address): "the bus at \(address)"
            }
        }
    }

    /// Default for method calls: long enough for BlueZ's Connect (which itself gives up after
    /// about 20 s), short enough that a wedged peer is noticed.
    public static let defaultCallTimeout: Duration = .seconds(25)

    let raw: OpaquePointer
    let queue: DispatchQueue
    /// This connection's unique name on the bus (`:1.42`).
    public let uniqueName: String

    // Confined to `queue`:
    var watches: [OpaquePointer: WatchSources] = [:]
    var timers: [OpaquePointer: DispatchSourceTimer] = [:]
    var subscriptions: [UInt64: SignalSubscription] = [:]
    var nextSubscriptionID: UInt64 = 0
    var ownerTracking: [String: OwnerState] = [:]
    var exports: [String: BusExportedObject] = [:]
    var isOpen = true
    var dispatchScheduled = false

    private init(raw: OpaquePointer, queue: DispatchQueue, uniqueName: String) {
        self.raw = raw
        self.queue = queue
        self.uniqueName = uniqueName
    }

    /// Opens a private connection and registers on the bus (a brief blocking handshake on a
    /// dispatch thread, not the caller's).
    public static func connect(to bus: Bus) async throws(BusError) -> BusConnection {
        let queue = DispatchQueue(label: "hrbridge.dbus")
        let result: Result<BusConnection, BusError> = await withCheckedContinuation { continuation in
            queue.async { continuation.resume(returning: open(bus, queue: queue)) }
        }
        return try result.get()
    }

    private static func open(_ bus: Bus, queue: DispatchQueue) -> Result<BusConnection, BusError> {
        _ = dbus_threads_init_default()
        var error = DBusError()
        dbus_error_init(&error)
        defer { dbus_error_free(&error) }
        let raw: OpaquePointer?
        switch bus {
        case .system: raw = dbus_bus_get_private(DBUS_BUS_SYSTEM, &error)
        case .session: raw = dbus_bus_get_private(DBUS_BUS_SESSION, &error)
        case let .address(address):
            raw = dbus_connection_open_private(address, &error)
            if let raw, dbus_bus_register(raw, &error) == 0 {
                dbus_connection_close(raw)
                dbus_connection_unref(raw)
                return .failure(failure(error, bus))
            }
        }
        guard let raw else { return .failure(failure(error, bus)) }
        dbus_connection_set_exit_on_disconnect(raw, 0)
        let uniqueName = dbus_bus_get_unique_name(raw).map { String(cString: $0) } ?? ""
        let connection = BusConnection(raw: raw, queue: queue, uniqueName: uniqueName)
        connection.installMainLoop()
        return .success(connection)
    }

    private static func failure(_ error: DBusError, _ bus: Bus) -> BusError {
        .cannotConnect(
            where: bus.description,
            name: error.name.map { String(cString: $0) } ?? BusErrorName.failed,
            message: error.message.map { String(cString: $0) } ?? "unknown error"
        )
    }

    /// Calls a method and waits for its reply (or error, or libdbus's NoReply after `timeout`).
    /// Cancelling the calling task cancels the call (`.cancelled`); the peer may still act on it.
    public func call(_ call: BusMethodCall, timeout: Duration = defaultCallTimeout) async throws(BusError) -> [BusValue] {
        let ticket = CallTicket()
        let result: Result<[BusValue], BusError> = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                queue.async { self.send(call, timeout: timeout, ticket: ticket) { continuation.resume(returning: $0) } }
            }
        } onCancel: {
            queue.async { self.cancel(ticket) }
        }
        return try result.get()
    }

    /// Sends a method call flagged as wanting no reply and returns once it is written to the socket:
    /// for a request the peer carries out whoever still listens, whose answer would only make the
    /// caller wait (bluetoothd answers a Disconnect after its own 2 s grace).
    public func sendWithoutReply(_ call: BusMethodCall) async throws(BusError) {
        let result: Result<Void, BusError> = await withCheckedContinuation { continuation in
            queue.async { continuation.resume(returning: self.sendWithoutReply(call)) }
        }
        try result.get()
    }

    /// Whether file descriptors can travel on this connection (unix socket transports).
    public var canPassFileDescriptors: Bool {
        queue.sync { dbus_connection_can_send_type(raw, typeCode("h")) != 0 }
    }

    /// Closes the connection; pending calls fail with `.disconnected` and signal streams end.
    public func close() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            queue.async {
                self.shutDown()
                continuation.resume()
            }
        }
    }

    // MARK: - On the queue

    /// The call as a libdbus message (the caller unrefs it), checked and encoded.
    private func message(for call: BusMethodCall) -> Result<OpaquePointer, BusError> {
        dispatchPrecondition(condition: .onQueue(queue))
        guard isOpen, dbus_connection_get_is_connected(raw) != 0 else { return .failure(.disconnected) }
        guard BusNames.isValidBusName(call.destination), BusNames.isValidObjectPath(call.path),
              BusNames.isValidInterface(call.interface), BusNames.isValidMember(call.method)
        else { return .failure(.invalidArgument("bad address for \(call.description)")) }
        guard let message = dbus_message_new_method_call(call.destination, call.path, call.interface, call.method) else {
            return .failure(.outOfMemory)
        }
        do {
            try MessageEncoding.append(call.arguments, to: message)
        } catch {
            dbus_message_unref(message)
            return .failure(error)
        }
        return .success(message)
    }

    func send(_ call: BusMethodCall, timeout: Duration, ticket: CallTicket? = nil,
              completion: @escaping @Sendable (Result<[BusValue], BusError>) -> Void) {
        dispatchPrecondition(condition: .onQueue(queue))
        guard ticket?.cancelled != true else { return completion(.failure(.cancelled)) }
        let message: OpaquePointer
        switch self.message(for: call) {
        case let .success(made): message = made
        case let .failure(error): return completion(.failure(error))
        }
        defer { dbus_message_unref(message) }
        var pending: OpaquePointer?
        let milliseconds = Int32(clamping: timeout.components.seconds * 1000 + timeout.components.attoseconds / 1_000_000_000_000_000)
        guard dbus_connection_send_with_reply(raw, message, &pending, milliseconds) != 0, let pending else {
            return completion(.failure(.disconnected))
        }
        let replyBox = ReplyBox(completion)
        if let ticket {
            ticket.pending = pending
            ticket.box = replyBox
            dbus_pending_call_ref(pending)
            replyBox.onComplete = { dbus_pending_call_unref(pending); ticket.pending = nil; ticket.box = nil }
        }
        let box = Unmanaged.passRetained(replyBox).toOpaque()
        dbus_pending_call_set_notify(pending, { pending, data in
            guard let pending, let data else { return }
            let box = Unmanaged<ReplyBox>.fromOpaque(data).takeUnretainedValue()
            guard let reply = dbus_pending_call_steal_reply(pending) else { return box.complete(.failure(.disconnected)) }
            defer { dbus_message_unref(reply) }
            let message = BusMessage(decoding: reply)
            box.complete(message.kind == .error ? .failure(message.asError) : .success(message.body))
        }, box, { data in
            guard let data else { return }
            let box = Unmanaged<ReplyBox>.fromOpaque(data).takeRetainedValue()
            box.complete(.failure(.disconnected)) // no-op when already answered
        })
        dbus_pending_call_unref(pending) // the connection keeps its own reference until completion
    }

    func sendWithoutReply(_ call: BusMethodCall) -> Result<Void, BusError> {
        dispatchPrecondition(condition: .onQueue(queue))
        let message: OpaquePointer
        switch self.message(for: call) {
        case let .success(made): message = made
        case let .failure(error): return .failure(error)
        }
        defer { dbus_message_unref(message) }
        dbus_message_set_no_reply(message, 1)
        guard dbus_connection_send(raw, message, nil) != 0 else { return .failure(.outOfMemory) }
        dbus_connection_flush(raw)
        return .success(())
    }

    func cancel(_ ticket: CallTicket) {
        ticket.cancelled = true
        guard let pending = ticket.pending, let box = ticket.box else { return }
        dbus_pending_call_cancel(pending)
        box.complete(.failure(.cancelled))
    }

    func shutDown() {
        dispatchPrecondition(condition: .onQueue(queue))
        guard isOpen else { return }
        isOpen = false
        dbus_connection_flush(raw) // replies we queued go out before the socket closes
        dbus_connection_close(raw)
        dispatchAll() // lets libdbus complete pending calls with errors
        for subscription in subscriptions.values { subscription.finish() }
        subscriptions.removeAll()
        exports.removeAll()
        removeMainLoop()
        dbus_connection_unref(raw)
    }
}

/// Lets a caller's task cancel its call; touched only on the connection's queue.
final class CallTicket: @unchecked Sendable {
    var cancelled = false
    var pending: OpaquePointer?
    var box: ReplyBox?
}

/// Carries a reply callback through libdbus's `void *` and makes it fire exactly once.
final class ReplyBox {
    private var completion: (@Sendable (Result<[BusValue], BusError>) -> Void)?
    var onComplete: (() -> Void)?

    init(_ completion: @escaping @Sendable (Result<[BusValue], BusError>) -> Void) {
        self.completion = completion
    }

    func complete(_ result: Result<[BusValue], BusError>) {
        guard let completion else { return }
        self.completion = nil
        onComplete?()
        onComplete = nil
        completion(result)
    }
}
