import SinkVocabulary
import Platform

/// `"listen": {"address": "127.0.0.1:8787", "tokenFile": "credential:http-token",
/// "certificateFile": "/etc/hrbridge/tls/cert.pem", "keyFile": "credential:tls-key.pem"}`.
enum ListenSection {
    static let keys = ["address", "tokenFile", "tokenEnvironment", "certificateFile", "keyFile"]

    static func read(_ node: ConfigNode) -> ListenSettings? {
        let issuesBefore = node.log.issues.count
        guard let object = ObjectFields(node, allowed: keys) else { return nil }
        var settings = ListenSettings()
        var valid = true
        if let address = object.optional("address"), let text = address.string() {
            do {
                settings.address = try ListenAddress(parsing: text)
            } catch {
                address.report(error.description)
                valid = false
            }
        }
        if object.has("tokenFile"), object.has("tokenEnvironment") {
            node.report("tokenFile and tokenEnvironment exclude each other")
            valid = false
        }
        if let file = object.optional("tokenFile") { settings.token = reference(file).map { .file($0) } }
        if let variable = object.optional("tokenEnvironment"), let name = variable.string() {
            switch SinkOption.Value.secret(environment: true).readEnvironmentName(name) {
            case let .success(.secret(source)): settings.token = source
            case let .failure(problem): variable.report(problem.message)
            case .success: break
            }
        }
        if let file = object.optional("certificateFile") { settings.certificate = reference(file) }
        if let file = object.optional("keyFile") { settings.key = reference(file) }
        if valid, let problem = settings.problem(tokenKeys: "tokenFile or tokenEnvironment", address: "address") {
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
        if let address = settings.address { members.append(.init("address", .string(address.description))) }
        switch settings.token {
        case let .file(reference)?: members.append(.init("tokenFile", .string(reference.description)))
        case let .environment(name)?: members.append(.init("tokenEnvironment", .string(name)))
        case nil: break
        }
        if let certificate = settings.certificate { members.append(.init("certificateFile", .string(certificate.description))) }
        if let key = settings.key { members.append(.init("keyFile", .string(key.description))) }
        return .object(members)
    }
}
