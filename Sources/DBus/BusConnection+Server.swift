import CDBus

/// The server side: a well-known name, exported objects whose calls arrive through the same
/// dispatch as replies and signals (no extra thread, no polling), and the standard
/// Introspectable and Properties interfaces answered from each object's description.
extension BusConnection {
    /// Takes `name` as its only owner, without queueing behind another owner. Throws
    /// `.nameTaken` when another connection has it, or the bus's own error (AccessDenied when the
    /// policy forbids owning it).
    public func requestName(_ name: String) async throws(BusError) {
        guard BusNames.isValidBusName(name), !name.hasPrefix(":") else { throw .invalidArgument("'\(name)' is not a well-known bus name") }
        let doNotQueue: UInt32 = 4 // DBUS_NAME_FLAG_DO_NOT_QUEUE
        let reply = try await call(Self.daemonCall("RequestName", .string(name), .uint32(doNotQueue)))
        switch reply.first?.integer {
        case 1, 4: return // primary owner now, or already
        default:
            let owner = (try? await owner(of: name)) ?? nil
            throw .nameTaken(name: name, owner: owner)
        }
    }

    /// Serves `object` at its path until the connection closes (a second export replaces it).
    public func export(_ object: BusExportedObject) async throws(BusError) {
        guard BusNames.isValidObjectPath(object.path) else { throw .invalidArgument("'\(object.path)' is not a valid object path") }
        let done: Result<Void, BusError> = await withCheckedContinuation { continuation in
            queue.async {
                guard self.isOpen else { return continuation.resume(returning: .failure(.disconnected)) }
                self.exports[object.path] = object
                continuation.resume(returning: .success(()))
            }
        }
        try done.get()
    }

    /// Sends a signal from one of our objects (a served value's PropertiesChanged) and returns at once:
    /// it goes out on the connection's queue, after what was sent before it, and is written to the
    /// socket there, not at the main loop's next turn (a notification's latency is the point).
    /// Throws for an invalid path, interface or member; a closed connection, or arguments libdbus
    /// would reject, drop the signal (our signals carry `ay` values and fixed names).
    public func emitSignal(path: String, interface: String, member: String, arguments: [BusValue]) throws(BusError) {
        guard BusNames.isValidObjectPath(path), BusNames.isValidInterface(interface), BusNames.isValidMember(member) else {
            throw .invalidArgument("bad address for signal \(interface).\(member) at \(path)")
        }
        queue.async {
            guard self.isOpen, let message = dbus_message_new_signal(path, interface, member) else { return }
            defer { dbus_message_unref(message) }
            guard (try? MessageEncoding.append(arguments, to: message)) != nil else { return }
            _ = dbus_connection_send(self.raw, message, nil)
            dbus_connection_flush(self.raw)
        }
    }

    // MARK: - On the queue

    /// A method call for one of our objects: answered here (true), else left to libdbus, which
    /// replies UnknownObject / UnknownMethod itself.
    func serveCall(_ raw: OpaquePointer) -> Bool {
        guard dbus_message_get_type(raw) == DBUS_MESSAGE_TYPE_METHOD_CALL,
              let path = dbus_message_get_path(raw).map({ String(cString: $0) }) else { return false }
        if let object = exports[path] {
            serve(BusMethodInvocation(raw: raw, connection: self), object)
            return true
        }
        let interface = dbus_message_get_interface(raw).map { String(cString: $0) }
        let member = dbus_message_get_member(raw).map { String(cString: $0) }
        // Parents of exported paths introspect to their children, so tools can walk the tree.
        guard interface == nil || interface == BusInterfaceName.introspectable, member == "Introspect" else { return false }
        let children = childNodes(of: path)
        guard !children.isEmpty else { return false }
        BusMethodInvocation(raw: raw, connection: self).reply([.string(BusIntrospection.xml(interfaces: [], children: children))])
        return true
    }

    private func serve(_ invocation: BusMethodInvocation, _ object: BusExportedObject) {
        let member = invocation.member
        let arguments = invocation.arguments
        switch invocation.interface {
        case BusInterfaceName.introspectable? where member == "Introspect":
            invocation.reply([.string(BusIntrospection.xml(interfaces: object.interfaces, children: childNodes(of: object.path)))])
        case BusInterfaceName.properties?:
            servePropertyCall(invocation, object)
        case BusInterfaceName.peer? where member == "Ping":
            invocation.reply()
        case let name?:
            guard let description = object.interfaces.first(where: { $0.name == name }) else {
                return invocation.fail(BusErrorName.unknownInterface, "\(object.path) has no interface \(name)")
            }
            guard description.methods.contains(where: { $0.name == member }) else {
                return invocation.fail(BusErrorName.unknownMethod, "\(name) has no method \(member)")
            }
            object.handleCall(invocation)
        case nil:
            // No interface named: the first of ours with that method, as the specification allows.
            guard object.interfaces.contains(where: { $0.methods.contains { $0.name == member } }) else {
                return invocation.fail(BusErrorName.unknownMethod, "\(object.path) has no method \(member) (\(arguments.count) arguments)")
            }
            object.handleCall(invocation)
        }
    }

    private func servePropertyCall(_ invocation: BusMethodInvocation, _ object: BusExportedObject) {
        let arguments = invocation.arguments
        let interfaceName = arguments.first?.string ?? ""
        guard let description = object.interfaces.first(where: { $0.name == interfaceName }) else {
            return invocation.fail(BusErrorName.unknownInterface, "\(object.path) has no interface '\(interfaceName)'")
        }
        switch invocation.member {
        case "GetAll" where arguments.count == 1:
            let values = object.properties(interfaceName).filter { key, _ in description.properties.contains { $0.name == key } }
            invocation.reply([.propertyMap(values)])
        case "Get" where arguments.count == 2:
            let name = arguments[1].string ?? ""
            guard description.properties.contains(where: { $0.name == name }), let value = object.properties(interfaceName)[name] else {
                return invocation.fail(BusErrorName.unknownProperty, "\(interfaceName) has no property '\(name)'")
            }
            invocation.reply([.variant(value)])
        case "Set" where arguments.count == 3:
            invocation.fail(BusErrorName.propertyReadOnly, "the properties of \(interfaceName) are read-only")
        default:
            invocation.fail(BusErrorName.invalidArgs, "\(BusInterfaceName.properties).\(invocation.member) does not take these arguments")
        }
    }

    /// The next path element of every exported path below `path`.
    private func childNodes(of path: String) -> [String] {
        let prefix = path == "/" ? "/" : path + "/"
        let names = exports.keys.filter { $0.hasPrefix(prefix) }.compactMap { $0.dropFirst(prefix.count).split(separator: "/").first.map(String.init) }
        return Array(Set(names)).sorted()
    }
}
