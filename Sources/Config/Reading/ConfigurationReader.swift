import Forwarding

/// Turns the text of a configuration file into a `BridgeConfiguration`, or every reason it cannot.
///
///     {"straps": [...], "cadence": {...}, "apns": {...}, "http": {...}}
///
/// `apns` (and any other kind's shared object) is there because a sink kind says it has team-wide
/// settings (`SinkOption.Scope.kind`).
public enum ConfigurationReader {
    static var keys: [String] { ["straps", "cadence"] + SinkSection.kindsWithSharedSettings.map(\.name) + ["http"] }

    /// `file` names the file in messages (as the user gave it).
    public static func read(_ bytes: [UInt8], file: String) throws(ConfigError) -> BridgeConfiguration {
        let json: JSONValue
        do {
            json = try JSONParser.parse(bytes)
        } catch {
            throw .syntax(file: file, error)
        }
        let log = IssueLog()
        let configuration = read(ConfigNode(value: json, path: .root, log: log))
        guard let configuration, log.issues.isEmpty else { throw .invalid(file: file, log.issues) }
        return configuration
    }

    private static func read(_ root: ConfigNode) -> BridgeConfiguration? {
        guard let object = ObjectFields(root, allowed: keys) else { return nil }
        let cadence = object.optional("cadence").map(CadenceSection.read) ?? CadenceSettings()
        let straps = object.required("straps", "a list of straps and their activities")
            .flatMap { StrapSection.read($0, cadence: cadence) }
        var shared: [String: SinkValues] = [:]
        var sharedRead = true
        for kind in SinkSection.kindsWithSharedSettings {
            guard let node = object.optional(kind.name) else { continue }
            if let values = SinkSection.readShared(kind, node) { shared[kind.name] = values } else { sharedRead = false }
        }
        let http = object.optional("http").map(SinkSection.readHTTP) ?? HTTPSettings()
        guard let straps, sharedRead else { return nil }
        for kind in SinkSection.kindsWithSharedSettings where shared[kind.name] == nil {
            guard straps.contains(where: { $0.sinks.contains { $0.kind == kind.name } }) else { continue }
            let keys = kind.options.filter { $0.scope == .kind && $0.required }.map { $0.configKeys[0] }
            root.report("missing key \(kind.name.jsonQuoted) (\(keys.joined(separator: ", "))), needed by the \(kind.name) sinks")
            return nil
        }
        return BridgeConfiguration(straps: straps, shared: shared, http: http)
    }

    /// The configuration as `config check` prints it: every strap with its activity settings and
    /// the whole cadence policy it will run with (defaults included), secrets as the files they are
    /// read from. Reading it back gives the same configuration.
    public static func effectiveJSON(_ configuration: BridgeConfiguration) -> String {
        var members: [JSONValue.Member] = [.init("straps", .array(configuration.straps.map(StrapSection.json)))]
        for kind in SinkSection.kindsWithSharedSettings {
            if let values = configuration.shared[kind.name] { members.append(.init(kind.name, SinkSection.json(shared: values, of: kind))) }
        }
        members.append(.init("http", SinkSection.json(configuration.http)))
        return JSONWriter.pretty(.object(members))
    }
}
