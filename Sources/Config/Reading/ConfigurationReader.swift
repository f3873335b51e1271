import Platform
import SinkVocabulary

/// Turns the text of a configuration file into a `BridgeConfiguration`, or every reason it cannot.
///
///     {"straps": [...], "cadence": {...}, "apns": {...}, "http": {...}}
///
/// `apns` (and any other shared object) is there because sink kinds say they share settings under
/// that name (`SinkOption.Scope.shared`). What a sink object may hold comes from `kinds`, the sink
/// kinds' descriptions (Forwarding's `SinkKinds.catalog`), given by the caller.
public enum ConfigurationReader {
    static func keys(_ kinds: SinkCatalog) -> [String] { ["straps", "cadence"] + kinds.sharedObjects.map(\.name) + ["http", "listen"] }

    /// `file` names the file in messages (as the user gave it).
    public static func read(_ bytes: [UInt8], file: String, kinds: SinkCatalog) throws(ConfigError) -> BridgeConfiguration {
        let json: JSONValue
        do {
            json = try JSONParser.parse(bytes)
        } catch {
            throw .syntax(file: file, error)
        }
        let log = IssueLog()
        let configuration = read(ConfigNode(value: json, path: .root, log: log), kinds)
        guard let configuration, log.issues.isEmpty else { throw .invalid(file: file, log.issues) }
        return configuration
    }

    private static func read(_ root: ConfigNode, _ kinds: SinkCatalog) -> BridgeConfiguration? {
        guard let object = ObjectFields(root, allowed: keys(kinds)) else { return nil }
        let cadence = object.optional("cadence").map(CadenceSection.read) ?? CadenceSettings()
        let straps = object.required("straps", "a list of straps and their activities")
            .flatMap { StrapSection.read($0, cadence: cadence, kinds: kinds) }
        var shared: [String: SinkValues] = [:]
        var sharedRead = true
        for sharedObject in kinds.sharedObjects {
            guard let node = object.optional(sharedObject.name) else { continue }
            if let values = SinkSection.readShared(sharedObject, node) { shared[sharedObject.name] = values } else { sharedRead = false }
        }
        let http = object.optional("http").map(SinkSection.readHTTP) ?? HTTPSettings()
        let listenNode = object.optional("listen")
        let listen = listenNode.flatMap(ListenSection.read)
        guard let straps, sharedRead, listenNode == nil || listen != nil else { return nil }
        for sharedObject in kinds.sharedObjects where shared[sharedObject.name] == nil {
            let users = sharedObject.kinds.map(\.name).filter { kind in straps.contains { $0.sinks.contains { $0.kind == kind } } }
            guard !users.isEmpty else { continue }
            let keys = sharedObject.options.filter(\.required).map { $0.configKeys[0] }
            root.report("missing key \(sharedObject.name.jsonQuoted) (\(keys.joined(separator: ", "))), needed by the \(users.joined(separator: " and ")) sinks")
            return nil
        }
        return BridgeConfiguration(straps: straps, shared: shared, http: http, listen: listen)
    }

    /// The configuration as `config check` prints it: every strap with its activity settings and
    /// the whole cadence policy it will run with (defaults included), secrets as the files they are
    /// read from. Reading it back gives the same configuration.
    public static func effectiveJSON(_ configuration: BridgeConfiguration, kinds: SinkCatalog) -> String {
        var members: [JSONValue.Member] = [.init("straps", .array(configuration.straps.map { StrapSection.json($0, kinds: kinds) }))]
        for sharedObject in kinds.sharedObjects {
            if let values = configuration.shared[sharedObject.name] {
                members.append(.init(sharedObject.name, SinkSection.json(shared: values, options: sharedObject.options)))
            }
        }
        members.append(.init("http", SinkSection.json(configuration.http)))
        if let listen = configuration.listen { members.append(.init("listen", ListenSection.json(listen))) }
        return JSONWriter.pretty(.object(members))
    }
}
