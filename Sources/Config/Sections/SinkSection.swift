/// The sink settings: each strap's `sinks` list, the team-wide `apns` object and the `http` object.
/// Names follow the forwarding branch (`HTTPClientConfiguration`, `ProviderTokenSource` keyID/teamID,
/// issue 5's `--sink stdout|file:PATH|URL|apns`); building the forwarding module's sinks from these
/// values belongs in this file at merge.
///
///     "sinks": [
///       {"type": "stdout"},
///       {"type": "file", "path": "/var/log/hrbridge/updates.ndjson"},
///       {"type": "lifecycle", "url": "https://example.org/activities", "tokenFile": "credential:lifecycle-token"},
///       {"type": "apns", "deviceTokenFile": "credential:phone-activity-token"}
///     ]
enum SinkSection {
    static let types = ["stdout", "file", "lifecycle", "apns"]

    static func readSinks(_ node: ConfigNode) -> [SinkConfiguration]? {
        guard let elements = node.array() else { return nil }
        guard !elements.isEmpty else { node.report("expected at least one sink"); return nil }
        var sinks: [SinkConfiguration] = []
        for element in elements {
            guard let sink = readSink(element) else { continue }
            if sinks.contains(sink) { element.report("the same sink is listed twice"); continue }
            sinks.append(sink)
        }
        return sinks.count == elements.count ? sinks : nil
    }

    private static func readSink(_ node: ConfigNode) -> SinkConfiguration? {
        guard case let .object(members) = node.value else {
            node.report("expected an object with a \"type\" (\(types.joined(separator: ", "))), got \(node.value.kindDescription)")
            return nil
        }
        let type = members.first { $0.key == "type" }.flatMap {
            ConfigNode(value: $0.value, path: node.path.appending("type"), log: node.log).choice(types)
        }
        switch type {
        case "stdout":
            _ = ObjectFields(node, allowed: ["type"])
            return .standardOutput
        case "file":
            guard let object = ObjectFields(node, allowed: ["type", "path"]),
                  let path = object.required("path", "the absolute path to append NDJSON to")?.absolutePath()
            else { return nil }
            return .file(path: path)
        case "lifecycle":
            return readLifecycle(node)
        case "apns":
            return readAPNsSink(node)
        default:
            if !members.contains(where: { $0.key == "type" }) {
                node.report("missing key \"type\" (one of \(types.joined(separator: ", ")))")
            }
            return nil
        }
    }

    private static func readLifecycle(_ node: ConfigNode) -> SinkConfiguration? {
        guard let object = ObjectFields(node, allowed: ["type", "url", "tokenFile", "tokenEnvironment"]) else { return nil }
        let url = object.required("url", "the lifecycle server's https URL")?.httpURL()
        let file = object.optional("tokenFile")?.fileReference()
        let variable = object.optional("tokenEnvironment")?.nonEmptyString()
        if object.has("tokenFile"), object.has("tokenEnvironment") {
            node.report("expected tokenFile or tokenEnvironment, not both")
            return nil
        }
        guard let url else { return nil }
        if object.has("tokenFile") { return file.map { .lifecycle(url: url, token: .file($0)) } }
        if object.has("tokenEnvironment") { return variable.map { .lifecycle(url: url, token: .environment($0)) } }
        return .lifecycle(url: url, token: nil)
    }

    private static func readAPNsSink(_ node: ConfigNode) -> SinkConfiguration? {
        guard let object = ObjectFields(node, allowed: ["type", "deviceTokenFile", "pushToStartTokenFile"]) else { return nil }
        let device = object.optional("deviceTokenFile")?.fileReference()
        let pushToStart = object.optional("pushToStartTokenFile")?.fileReference()
        guard object.has("deviceTokenFile") || object.has("pushToStartTokenFile") else {
            node.report("an apns sink needs deviceTokenFile (the activity's push token) or pushToStartTokenFile")
            return nil
        }
        guard object.has("deviceTokenFile") == (device != nil), object.has("pushToStartTokenFile") == (pushToStart != nil) else {
            return nil
        }
        return .apns(deviceToken: device, pushToStartToken: pushToStart)
    }

    // MARK: apns and http

    /// Apple's key and team ids are 10 characters of A–Z and 0–9 (as the developer account shows them).
    static func isAppleID(_ text: String) -> Bool {
        text.count == 10 && text.unicodeScalars.allSatisfy { ("A"..."Z").contains($0) || ("0"..."9").contains($0) }
    }

    static func readAPNs(_ node: ConfigNode) -> APNsSettings? {
        guard let object = ObjectFields(node, allowed: ["keyFile", "keyID", "teamID", "bundleID", "server"]) else { return nil }
        let keyFile = object.required("keyFile", "the .p8 auth key: an absolute path or credential:NAME")?.fileReference()
        let keyID = object.required("keyID", "the auth key's 10-character id")?.appleID()
        let teamID = object.required("teamID", "the 10-character team id")?.appleID()
        let bundleID = object.required("bundleID", "the app's bundle id")?.bundleID()
        var server = APNsServer.production
        if let node = object.optional("server") {
            guard let text = node.string() else { return nil }
            switch text {
            case "production": server = .production
            case "sandbox": server = .sandbox
            default:
                guard let url = node.httpURL() else { return nil }
                server = .custom(url: url)
            }
        }
        guard let keyFile, let keyID, let teamID, let bundleID else { return nil }
        return APNsSettings(keyFile: keyFile, keyID: keyID, teamID: teamID, bundleID: bundleID, server: server)
    }

    /// Curl takes whole milliseconds: under one it would get 0, which means no limit at all, and
    /// 1e16 s overflows the conversion. A stuck server must not hold the delivery queue for long.
    static let timeouts = 0.001...600.0

    static func readHTTP(_ node: ConfigNode) -> HTTPSettings {
        var settings = HTTPSettings()
        guard let object = ObjectFields(node, allowed: ["certificateAuthorityFile", "connectTimeout", "requestTimeout"]) else {
            return settings
        }
        settings.certificateAuthorityFile = object.optional("certificateAuthorityFile")?.absolutePath()
        settings.connectTimeout = object.optional("connectTimeout")?.timeout()
        settings.requestTimeout = object.optional("requestTimeout")?.timeout()
        return settings
    }

    // MARK: printing

    static func json(_ sink: SinkConfiguration) -> JSONValue {
        switch sink {
        case .standardOutput:
            return .object([.init("type", .string("stdout"))])
        case let .file(path):
            return .object([.init("type", .string("file")), .init("path", .string(path))])
        case let .lifecycle(url, token):
            var members: [JSONValue.Member] = [.init("type", .string("lifecycle")), .init("url", .string(url))]
            switch token {
            case let .file(reference): members.append(.init("tokenFile", .string(reference.description)))
            case let .environment(variable): members.append(.init("tokenEnvironment", .string(variable)))
            case nil: break
            }
            return .object(members)
        case let .apns(device, pushToStart):
            var members: [JSONValue.Member] = [.init("type", .string("apns"))]
            if let device { members.append(.init("deviceTokenFile", .string(device.description))) }
            if let pushToStart { members.append(.init("pushToStartTokenFile", .string(pushToStart.description))) }
            return .object(members)
        }
    }

    static func json(_ settings: APNsSettings) -> JSONValue {
        let server: String
        switch settings.server {
        case .production: server = "production"
        case .sandbox: server = "sandbox"
        case let .custom(url): server = url
        }
        return .object([
            .init("keyFile", .string(settings.keyFile.description)),
            .init("keyID", .string(settings.keyID)),
            .init("teamID", .string(settings.teamID)),
            .init("bundleID", .string(settings.bundleID)),
            .init("server", .string(server)),
        ])
    }

    static func json(_ settings: HTTPSettings) -> JSONValue {
        var members: [JSONValue.Member] = []
        if let file = settings.certificateAuthorityFile { members.append(.init("certificateAuthorityFile", .string(file))) }
        if let seconds = settings.connectTimeout { members.append(.init("connectTimeout", .number(JSONNumber.text(seconds)))) }
        if let seconds = settings.requestTimeout { members.append(.init("requestTimeout", .number(JSONNumber.text(seconds)))) }
        return .object(members)
    }
}

private extension ConfigNode {
    func appleID() -> String? {
        guard let text = string() else { return nil }
        guard SinkSection.isAppleID(text) else {
            report("expected 10 characters A-Z and 0-9 (as the developer account shows it), got \(JSONWriter.quoted(text))")
            return nil
        }
        return text
    }

    /// Reverse-DNS: letters, digits, '-' and '.', at least two parts.
    func bundleID() -> String? {
        guard let text = string() else { return nil }
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        let allowed = parts.allSatisfy { part in
            !part.isEmpty && part.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || $0 == "-" }
        }
        guard parts.count >= 2, allowed else {
            report("expected a bundle id such as com.example.Workout, got \(JSONWriter.quoted(text))")
            return nil
        }
        return text
    }

    func timeout() -> Double? {
        guard let seconds = seconds() else { return nil }
        guard seconds > 0 else { report("expected seconds > 0, got 0"); return nil }
        return within(SinkSection.timeouts, seconds, unit: "seconds")
    }
}
