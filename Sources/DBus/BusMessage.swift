import CDBus

/// A received message (reply, error or signal), decoded once on the connection's queue.
public struct BusMessage: Sendable {
    public enum Kind: Sendable, Equatable { case methodCall, methodReturn, error, signal }

    public var kind: Kind
    public var sender: String?
    public var path: String?
    public var interface: String?
    public var member: String?
    public var errorName: String?
    public var body: [BusValue]

    public init(kind: Kind, sender: String? = nil, path: String? = nil, interface: String? = nil,
                member: String? = nil, errorName: String? = nil, body: [BusValue] = []) {
        self.kind = kind
        self.sender = sender
        self.path = path
        self.interface = interface
        self.member = member
        self.errorName = errorName
        self.body = body
    }

    init(decoding message: OpaquePointer) {
        let kind: Kind = switch dbus_message_get_type(message) {
        case DBUS_MESSAGE_TYPE_METHOD_CALL: .methodCall
        case DBUS_MESSAGE_TYPE_ERROR: .error
        case DBUS_MESSAGE_TYPE_SIGNAL: .signal
        default: .methodReturn
        }
        self.init(
            kind: kind,
            sender: dbus_message_get_sender(message).map { String(cString: $0) },
            path: dbus_message_get_path(message).map { String(cString: $0) },
            interface: dbus_message_get_interface(message).map { String(cString: $0) },
            member: dbus_message_get_member(message).map { String(cString: $0) },
            errorName: dbus_message_get_error_name(message).map { String(cString: $0) },
            body: MessageDecoding.values(of: message)
        )
    }

    /// For an error reply: the error, with the peer's text (its first string argument).
    var asError: BusError {
        .remote(name: errorName ?? BusErrorName.failed, message: body.first?.string ?? "")
    }
}

/// A method call to send: destination, object, interface, method and arguments.
public struct BusMethodCall: Sendable {
    public var destination: String
    public var path: String
    public var interface: String
    public var method: String
    public var arguments: [BusValue]

    public init(destination: String, path: String, interface: String, method: String, arguments: [BusValue] = []) {
        self.destination = destination
        self.path = path
        self.interface = interface
        self.method = method
        self.arguments = arguments
    }

    /// `interface.method on destination path`, for error messages.
    public var description: String { "\(interface).\(method) on \(destination) \(path)" }
}
