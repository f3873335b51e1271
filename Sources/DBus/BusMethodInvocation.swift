import CDBus
import Synchronization

/// One incoming method call, answered exactly once with `reply` or `fail` (from any thread; the
/// answer is sent on the connection's queue). Unanswered, the caller's own timeout applies.
public final class BusMethodInvocation: Sendable {
    public let message: BusMessage
    private let raw: SendableMessage
    private let connection: BusConnection
    private let answered = Atomic<Bool>(false)

    init(raw: OpaquePointer, connection: BusConnection) {
        dbus_message_ref(raw)
        self.raw = SendableMessage(pointer: raw)
        self.message = BusMessage(decoding: raw)
        self.connection = connection
    }

    deinit { dbus_message_unref(raw.pointer) }

    public var member: String { message.member ?? "" }
    public var interface: String? { message.interface }
    public var arguments: [BusValue] { message.body }
    /// The caller's unique name.
    public var sender: String? { message.sender }

    public func reply(_ values: [BusValue] = []) {
        answer { call in dbus_message_new_method_return(call) } body: { values }
    }

    /// An error reply: `name` is a D-Bus error name, `text` says what and why.
    public func fail(_ name: String, _ text: String) {
        answer { call in dbus_message_new_error(call, name, text) } body: { [] }
    }

    private func answer(_ make: @escaping @Sendable (OpaquePointer) -> OpaquePointer?, body: @escaping @Sendable () -> [BusValue]) {
        guard !answered.exchange(true, ordering: .acquiringAndReleasing) else { return }
        connection.queue.async { [self] in
            guard connection.isOpen, dbus_message_get_no_reply(raw.pointer) == 0, let reply = make(raw.pointer) else { return }
            defer { dbus_message_unref(reply) }
            do {
                try MessageEncoding.append(body(), to: reply)
            } catch {
                // A value we could not encode: say so rather than leave the caller waiting.
                if let failure = dbus_message_new_error(raw.pointer, BusErrorName.failed, "reply could not be encoded: \(error)") {
                    _ = dbus_connection_send(connection.raw, failure, nil)
                    dbus_message_unref(failure)
                }
                return
            }
            _ = dbus_connection_send(connection.raw, reply, nil)
        }
    }
}

/// A libdbus message held across threads; libdbus's reference counting is thread-safe once
/// threads are initialised (BusConnection.open does that).
struct SendableMessage: @unchecked Sendable {
    let pointer: OpaquePointer
}
