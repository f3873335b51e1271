/// A failed D-Bus operation: what failed and, for errors from a peer, its D-Bus error name
/// (e.g. `org.bluez.Error.InProgress`) so that policy can classify it.
public enum BusError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The bus could not be reached (`where` is the bus or address).
    case cannotConnect(where: String, name: String, message: String)
    /// The peer (or libdbus on its behalf, e.g. `org.freedesktop.DBus.Error.NoReply` on a
    /// timeout) answered with an error.
    case remote(name: String, message: String)
    /// The connection is closed or was lost.
    case disconnected
    /// An argument we were about to send is not valid D-Bus.
    case invalidArgument(String)
    case outOfMemory
    /// The calling task was cancelled before the reply came.
    case cancelled
    /// Another connection owns the well-known name we asked for (`owner`: its unique name, if known).
    case nameTaken(name: String, owner: String?)

    /// The D-Bus error name, when there is one.
    public var name: String? {
        switch self {
        case let .remote(name, _), let .cannotConnect(_, name, _): name
        case .disconnected: "org.freedesktop.DBus.Error.Disconnected"
        default: nil
        }
    }

    public var isTimeout: Bool {
        name == "org.freedesktop.DBus.Error.NoReply" || name == "org.freedesktop.DBus.Error.Timeout"
    }

    public var description: String {
        switch self {
        case let .cannotConnect(place, name, message): "cannot connect to \(place): \(message) (\(name))"
        case let .remote(name, message): message.isEmpty ? name : "\(name): \(message)"
        case .disconnected: "the D-Bus connection is closed"
        case let .invalidArgument(reason): "invalid D-Bus argument: \(reason)"
        case .outOfMemory: "libdbus ran out of memory"
        case .cancelled: "the call was cancelled"
        case let .nameTaken(name, owner): "\(name) is already owned on the bus\(owner.map { " by \($0)" } ?? "")"
        }
    }
}
