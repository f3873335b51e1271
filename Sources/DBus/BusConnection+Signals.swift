import CDBus

/// A subscriber's share of the signal traffic: its rules and where matching signals go (a
/// stream, or a handler called on the connection's queue).
final class SignalSubscription: Sendable {
    let rules: [BusMatchRule]
    let deliver: @Sendable (BusMessage) -> Void
    let finish: @Sendable () -> Void

    init(rules: [BusMatchRule], deliver: @escaping @Sendable (BusMessage) -> Void, finish: @escaping @Sendable () -> Void) {
        self.rules = rules
        self.deliver = deliver
        self.finish = finish
    }
}

/// Who owns a well-known name, so that a rule's `sender='org.bluez'` can be checked locally
/// against the unique name signals actually carry.
enum OwnerState {
    /// Asked, no answer yet: accept, the bus daemon already filtered by sender.
    case unresolved
    case owned(by: String)
    case vacant
}

extension BusConnection {
    /// Signals matching `rule`, in arrival order. The rule is active on the bus when this
    /// returns, so a snapshot read afterwards (GetManagedObjects) misses nothing. The stream
    /// ends when the connection closes or is lost; dropping it removes the rule.
    public func signals(matching rule: BusMatchRule) async throws(BusError) -> AsyncStream<BusMessage> {
        try await signals(matching: [rule])
    }

    /// One stream for several rules, so that their signals keep their relative order (an
    /// object's InterfacesAdded before its PropertiesChanged). A signal matching several
    /// rules arrives once.
    public func signals(matching rules: [BusMatchRule]) async throws(BusError) -> AsyncStream<BusMessage> {
        let (stream, continuation) = AsyncStream.makeStream(of: BusMessage.self)
        let id = try await subscribe(SignalSubscription(rules: rules, deliver: { continuation.yield($0) }, finish: { continuation.finish() }))
        continuation.onTermination = { [weak self] _ in
            guard let self else { return }
            queue.async {
                guard self.subscriptions.removeValue(forKey: id) != nil else { return }
                for rule in rules {
                    self.send(Self.daemonCall("RemoveMatch", .string(rule.text)), timeout: .seconds(5)) { _ in }
                }
            }
        }
        do {
            for rule in rules { _ = try await call(Self.daemonCall("AddMatch", .string(rule.text))) }
        } catch {
            continuation.finish()
            throw error
        }
        return stream
    }

    /// Signals matching `rules` go to `handler`, called on the connection's queue as each is
    /// dispatched: no task hop, for per-notification traffic. It must return quickly. Active
    /// when this returns; stays for the connection's life.
    public func onSignals(matching rules: [BusMatchRule], _ handler: @escaping @Sendable (BusMessage) -> Void) async throws(BusError) {
        _ = try await subscribe(SignalSubscription(rules: rules, deliver: handler, finish: {}))
        for rule in rules { _ = try await call(Self.daemonCall("AddMatch", .string(rule.text))) }
    }

    private func subscribe(_ subscription: SignalSubscription) async throws(BusError) -> UInt64 {
        let registered: Result<UInt64, BusError> = await withCheckedContinuation { done in
            queue.async {
                guard self.isOpen else { return done.resume(returning: .failure(.disconnected)) }
                let id = self.nextSubscriptionID
                self.nextSubscriptionID += 1
                self.subscriptions[id] = subscription
                for sender in subscription.rules.compactMap(\.sender) { self.trackOwner(of: sender) }
                done.resume(returning: .success(id))
            }
        }
        return try registered.get()
    }

    /// The unique name owning `name` now, or nil.
    public func owner(of name: String) async throws(BusError) -> String? {
        do {
            return try await call(Self.daemonCall("GetNameOwner", .string(name))).first?.string
        } catch where error.name == BusErrorName.nameHasNoOwner {
            return nil
        }
    }

    static func daemonCall(_ method: String, _ arguments: BusValue...) -> BusMethodCall {
        BusMethodCall(destination: BusInterfaceName.daemon, path: "/org/freedesktop/DBus", interface: BusInterfaceName.daemon, method: method, arguments: arguments)
    }

    // MARK: - On the queue

    func trackOwner(of name: String) {
        guard !name.hasPrefix(":"), name != BusInterfaceName.daemon, ownerTracking[name] == nil else { return }
        ownerTracking[name] = .unresolved
        let rule = BusMatchRule.nameOwnerChanged(of: name)
        send(Self.daemonCall("AddMatch", .string(rule.text)), timeout: Self.defaultCallTimeout) { _ in }
        send(Self.daemonCall("GetNameOwner", .string(name)), timeout: Self.defaultCallTimeout) { [weak self] result in
            // Runs on the queue, in wire order with the signals around it.
            guard let self else { return }
            switch result {
            case let .success(values): ownerTracking[name] = values.first?.string.map { .owned(by: $0) } ?? .vacant
            case let .failure(error) where error.name == BusErrorName.nameHasNoOwner: ownerTracking[name] = .vacant
            case .failure: break
            }
        }
    }

    func route(_ raw: OpaquePointer) {
        guard dbus_message_get_type(raw) == DBUS_MESSAGE_TYPE_SIGNAL else { return }
        let interface = dbus_message_get_interface(raw).map { String(cString: $0) }
        let member = dbus_message_get_member(raw).map { String(cString: $0) }
        let path = dbus_message_get_path(raw).map { String(cString: $0) }
        if interface == "org.freedesktop.DBus.Local", member == "Disconnected" { return connectionLost() }
        let sender = dbus_message_get_sender(raw).map { String(cString: $0) }
        var decoded: BusMessage?
        if interface == BusInterfaceName.daemon, member == "NameOwnerChanged", sender == BusInterfaceName.daemon {
            let message = BusMessage(decoding: raw)
            decoded = message
            if let name = message.body.first?.string, ownerTracking[name] != nil {
                let newOwner = message.body.count > 2 ? message.body[2].string ?? "" : ""
                ownerTracking[name] = newOwner.isEmpty ? .vacant : .owned(by: newOwner)
            }
        }
        for subscription in subscriptions.values {
            let candidates = subscription.rules.filter {
                $0.matchesHeader(interface: interface, member: member, path: path) && senderMatches($0.sender, sender)
            }
            guard !candidates.isEmpty else { continue }
            let message = decoded ?? BusMessage(decoding: raw)
            decoded = message
            if candidates.contains(where: { $0.matchesFirstArgument(message.body) }) { subscription.deliver(message) }
        }
    }

    private func senderMatches(_ expected: String?, _ actual: String?) -> Bool {
        guard let expected else { return true }
        if expected.hasPrefix(":") || expected == BusInterfaceName.daemon { return expected == actual }
        switch ownerTracking[expected] {
        case let .owned(owner): return owner == actual
        case .vacant: return false
        case .unresolved, nil: return true
        }
    }

    /// The socket closed under us: end every stream so that their owners notice and rebuild.
    func connectionLost() {
        for subscription in subscriptions.values { subscription.finish() }
        subscriptions.removeAll()
    }
}
