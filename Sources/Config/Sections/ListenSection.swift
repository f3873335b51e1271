import SinkVocabulary
import Platform

/// `"listen": {"address": "127.0.0.1:8787", "tokenFile": "credential:http-token",
/// "certificateFile": "/etc/hrbridge/tls/cert.pem", "keyFile": "credential:tls-key.pem"}`.
enum ListenSection {
    static let keys = SettingNames.keys(of: .listen)

    static func read(_ node: ConfigNode) -> ListenSettings? {
        let issuesBefore = node.log.issues.count
        guard let object = ObjectFields(node, allowed: keys) else { return nil }
        var settings = ListenSettings()
        var valid = true
        if let address = object.optional(SettingNames.listenAddress.key), let text = address.string() {
            do {
                settings.address = try ListenAddress(parsing: text)
            } catch {
                address.report(error.description)
                valid = false
            }
        }
        if object.has(SettingNames.listenTokenFile.key), object.has(SettingNames.listenTokenEnvironment.key) {
            node.report("tokenFile and tokenEnvironment exclude each other")
            valid = false
        }
        if let file = object.optional(SettingNames.listenTokenFile.key) { settings.token = reference(file).map { .file($0) } }
        if let variable = object.optional(SettingNames.listenTokenEnvironment.key), let name = variable.string() {
            switch SinkOption.Value.secret(environment: true).readEnvironmentName(name) {
            case let .success(.secret(source)): settings.token = source
            case let .failure(problem): variable.report(problem.message)
            case .success: break
            }
        }
        if let file = object.optional(SettingNames.listenCertificateFile.key) { settings.certificate = reference(file) }
        if let file = object.optional(SettingNames.listenKeyFile.key) { settings.key = reference(file) }
        if valid, let problem = settings.problem(tokenKeys: "\(SettingNames.listenTokenFile.key) or \(SettingNames.listenTokenEnvironment.key)",
                                                          address: SettingNames.listenAddress.key) {
            node.report(problem)
            valid = false
        }
        return valid && node.log.issues.count == issuesBefore ? settings : nil
    }

    private static func reference(_ node: ConfigNode) -> FileReference? {
        guard let text = node.string() else { return nil }
        do {
            return try FileReference(parsing: text)
        } catch {
            node.report(error.message)
            return nil
        }
    }

    static func json(_ settings: ListenSettings) -> JSONValue {
        var members: [JSONValue.Member] = []
        if let address = settings.address { members.append(.init(SettingNames.listenAddress.key, .string(address.description))) }
        switch settings.token {
        case let .file(reference)?: members.append(.init(SettingNames.listenTokenFile.key, .string(reference.description)))
        case let .environment(name)?: members.append(.init(SettingNames.listenTokenEnvironment.key, .string(name)))
        case nil: break
        }
        if let certificate = settings.certificate { members.append(.init(SettingNames.listenCertificateFile.key, .string(certificate.description))) }
        if let key = settings.key { members.append(.init(SettingNames.listenKeyFile.key, .string(key.description))) }
        return .object(members)
    }
}
