/// The sink kinds a reader of settings knows, by their descriptions alone: what the configuration
/// file's sink objects and shared objects (`"apns": {…}`) may hold. Forwarding's `SinkKinds.catalog`
/// is the real one; the configuration reader takes it as input, so Config needs no sink code.
public struct SinkCatalog: Sendable {
    /// In the order `--help` lists them.
    public let kinds: [SinkDescription]

    public init(_ kinds: [SinkDescription]) {
        self.kinds = kinds
    }

    public func named(_ name: String) -> SinkDescription? {
        kinds.first { $0.name == name }
    }

    /// A top-level object of settings that several sinks share, the options in it and the kinds using it.
    public struct SharedObject: Sendable {
        public let name: String
        public fileprivate(set) var options: [SinkOption]
        public fileprivate(set) var kinds: [SinkDescription]
    }

    /// Each shared settings object and the options in it, from every kind that uses it, in order.
    public var sharedObjects: [SharedObject] {
        var objects: [SharedObject] = []
        for kind in kinds {
            guard let name = kind.sharedObject else { continue }
            let shared = kind.options.filter { $0.sharedObject == name }
            if let index = objects.firstIndex(where: { $0.name == name }) {
                objects[index].options += shared.filter { option in !objects[index].options.contains { $0.key == option.key } }
                objects[index].kinds.append(kind)
            } else {
                objects.append(SharedObject(name: name, options: shared, kinds: [kind]))
            }
        }
        return objects
    }
}
