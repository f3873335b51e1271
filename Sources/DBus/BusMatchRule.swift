/// A signal match rule: sent to the bus daemon with AddMatch, and checked locally to route
/// each arriving signal to the subscriptions that asked for it.
public struct BusMatchRule: Sendable, Hashable {
    public var sender: String?
    public var interface: String?
    public var member: String?
    public var path: String?
    /// The path itself or anything below it (BlueZ's tree under `/org/bluez`).
    public var pathNamespace: String?
    /// The first argument must be this string (NameOwnerChanged's name, PropertiesChanged's interface).
    public var firstArgument: String?

    public init(sender: String? = nil, interface: String? = nil, member: String? = nil,
                path: String? = nil, pathNamespace: String? = nil, firstArgument: String? = nil) {
        self.sender = sender
        self.interface = interface
        self.member = member
        self.path = path
        self.pathNamespace = pathNamespace
        self.firstArgument = firstArgument
    }

    /// The rule in the bus daemon's text form.
    public var text: String {
        var parts = ["type='signal'"]
        func add(_ key: String, _ value: String?) {
            guard let value else { return }
            parts.append("\(key)='\(value.split(separator: "'", omittingEmptySubsequences: false).joined(separator: "'\\''"))'")
        }
        add("sender", sender)
        add("interface", interface)
        add("member", member)
        add("path", path)
        add("path_namespace", pathNamespace)
        add("arg0", firstArgument)
        return parts.joined(separator: ",")
    }

    /// Whether a signal's header fields (and first argument) fit; the sender is checked by
    /// the connection, which knows who owns a well-known name.
    func matchesHeader(interface: String?, member: String?, path: String?) -> Bool {
        if let expected = self.interface, expected != interface { return false }
        if let expected = self.member, expected != member { return false }
        if let expected = self.path, expected != path { return false }
        if let namespace = pathNamespace {
            guard let path else { return false }
            let inside = namespace == "/" || path == namespace || path.hasPrefix(namespace + "/")
            if !inside { return false }
        }
        return true
    }

    func matchesFirstArgument(_ body: [BusValue]) -> Bool {
        guard let expected = firstArgument else { return true }
        return body.first?.string == expected
    }
}

extension BusMatchRule {
    /// The bus daemon's NameOwnerChanged for one name: body (name, old owner, new owner),
    /// an empty owner meaning none.
    public static func nameOwnerChanged(of name: String) -> BusMatchRule {
        BusMatchRule(sender: BusInterfaceName.daemon, interface: BusInterfaceName.daemon, member: "NameOwnerChanged", firstArgument: name)
    }
}
