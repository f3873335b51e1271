import SinkVocabulary
/// The Apple developer account settings every APNs push signs with, shared by the `apns` and
/// `apns-background` sinks: the configuration holds them once, in its `"apns"` object.
struct APNsTeam {
    static let options: [SinkOption] = [
        SinkOption(key: "key", flag: "--apns-key", .secret(environment: false), scope: .shared("apns"), required: true,
                   help: "the team's .p8 signing key"),
        SinkOption(key: "keyID", flag: "--apns-key-id", .text(.appleID), scope: .shared("apns"), required: true,
                   help: "the signing key's 10-character id"),
        SinkOption(key: "teamID", flag: "--apns-team-id", .text(.appleID), scope: .shared("apns"), required: true,
                   help: "the 10-character team id"),
        SinkOption(key: "bundleID", flag: "--apns-bundle-id", .text(.bundleID), scope: .shared("apns"), required: true,
                   help: "the app's bundle id"),
        SinkOption(key: "server", flag: "--apns-server", .server(names: APNsSinkSettings.servers), scope: .shared("apns"),
                   help: "production (default), sandbox, or a push server's URL"),
    ]

    let baseURL: String
    let bundleID: String
    let tokens: ProviderTokenSource

    /// Reads the signing key (the one file the team settings name) and resolves the server.
    init(_ values: SinkValues, _ setup: SinkSetup) throws(SinkSetupError) {
        guard case let .file(keyFile)? = values.secret("key") else { throw .invalid("apns: no signing key") }
        let key: SigningKey
        do {
            key = try SigningKey(contentsOfFile: try setup.path(of: keyFile))
        } catch let error as SigningKeyError {
            switch error {
            case .unreadable: throw .unreadable(error.description)
            case .libcryptoMissing: throw .unavailable(error.description)
            default: throw .invalid(error.description)
            }
        } catch let error as SinkSetupError {
            throw error
        } catch {
            throw .invalid("\(error)")
        }
        let server = values.text("server") ?? APNsSinkSettings.servers[0].name
        baseURL = APNsSinkSettings.servers.first { $0.name == server }?.url ?? server
        bundleID = values.text("bundleID")!
        tokens = ProviderTokenSource(key: key, keyID: values.text("keyID")!, teamID: values.text("teamID")!)
    }

    /// A device or push-to-start token from its secret: one line of hex digits (`PushToken`).
    static func token(_ values: SinkValues, _ key: String, what: String, _ setup: SinkSetup) throws(SinkSetupError) -> PushToken? {
        guard let source = values.secret(key) else { return nil }
        let (line, origin) = try setup.readLine(source, what: what)
        switch PushToken.parse(line) {
        case let .success(token): return token
        case .failure(.notHex): throw .invalid("\(origin): expected one line of hex digits (the \(what))")
        case let .failure(problem): throw .invalid("\(origin): \(problem) (the \(what))")
        }
    }
}
