/// Turns the text of a configuration file into a `BridgeConfiguration`, or every reason it cannot.
///
///     {"straps": [...], "cadence": {...}, "apns": {...}, "http": {...}}
public enum ConfigurationReader {
    static let keys = ["straps", "cadence", "apns", "http"]

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
        let apnsNode = object.optional("apns")
        let apns = apnsNode.flatMap(SinkSection.readAPNs)
        let http = object.optional("http").map(SinkSection.readHTTP) ?? HTTPSettings()
        guard let straps else { return nil }
        let usesAPNs = straps.contains { $0.sinks.contains { if case .apns = $0 { true } else { false } } }
        if usesAPNs, apnsNode == nil {
            root.report("missing key \"apns\" (keyFile, keyID, teamID, bundleID), needed by the apns sinks")
            return nil
        }
        if apnsNode != nil, apns == nil { return nil }
        return BridgeConfiguration(straps: straps, apns: apns, http: http)
    }

    /// The configuration as `config check` prints it: every strap with its activity settings and
    /// the whole cadence policy it will run with (defaults included), secrets as the files they are
    /// read from. Reading it back gives the same configuration.
    public static func effectiveJSON(_ configuration: BridgeConfiguration) -> String {
        var members: [JSONValue.Member] = [.init("straps", .array(configuration.straps.map(StrapSection.json)))]
        if let apns = configuration.apns { members.append(.init("apns", SinkSection.json(apns))) }
        members.append(.init("http", SinkSection.json(configuration.http)))
        return JSONWriter.pretty(.object(members))
    }
}
