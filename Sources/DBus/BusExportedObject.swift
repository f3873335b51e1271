/// An object we serve on the bus: its path, the interfaces it describes (for Introspect and
/// Properties), a handler for calls to those interfaces and a source for read-only properties.
/// The handler runs on the connection's queue and must return quickly; it answers through the
/// invocation, at once or later from any thread.
public struct BusExportedObject: Sendable {
    public var path: String
    public var interfaces: [BusInterfaceDescription]
    public var handleCall: @Sendable (BusMethodInvocation) -> Void
    /// Current values of one interface's properties (called on the connection's queue).
    public var properties: @Sendable (_ interface: String) -> [String: BusValue]

    public init(path: String, interfaces: [BusInterfaceDescription],
                properties: @escaping @Sendable (_ interface: String) -> [String: BusValue] = { _ in [:] },
                handleCall: @escaping @Sendable (BusMethodInvocation) -> Void) {
        self.path = path
        self.interfaces = interfaces
        self.handleCall = handleCall
        self.properties = properties
    }
}

/// What an interface offers, as Introspect reports it.
public struct BusInterfaceDescription: Sendable {
    public struct Argument: Sendable {
        public var name: String
        public var signature: String
        public init(_ name: String, _ signature: String) {
            self.name = name
            self.signature = signature
        }
    }

    public struct Method: Sendable {
        public var name: String
        public var inputs: [Argument]
        public var outputs: [Argument]
        public init(_ name: String, inputs: [Argument] = [], outputs: [Argument] = []) {
            self.name = name
            self.inputs = inputs
            self.outputs = outputs
        }
    }

    /// A read-only property.
    public struct Property: Sendable {
        public var name: String
        public var signature: String
        public init(_ name: String, _ signature: String) {
            self.name = name
            self.signature = signature
        }
    }

    public var name: String
    public var methods: [Method]
    public var properties: [Property]

    public init(name: String, methods: [Method] = [], properties: [Property] = []) {
        self.name = name
        self.methods = methods
        self.properties = properties
    }
}
