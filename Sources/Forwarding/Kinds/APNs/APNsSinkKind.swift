extension SinkKind {
    /// `--sink apns`, `{"type": "apns", …}` with the team's `"apns": {…}`: Live Activity pushes over
    /// HTTP/2 to APNs, signed with the team's .p8 key (ES256 provider token).
    public static let apns = SinkKind(
        name: "apns", selector: .word("apns"),
        summary: "Live Activity pushes to APNs (or a server speaking its protocol)",
        options: [
            SinkOption(key: "key", flag: "--apns-key", .secret(environment: false), scope: .kind, required: true,
                       help: "the team's .p8 signing key"),
            SinkOption(key: "keyID", flag: "--apns-key-id", .text(.appleID), scope: .kind, required: true,
                       help: "the signing key's 10-character id"),
            SinkOption(key: "teamID", flag: "--apns-team-id", .text(.appleID), scope: .kind, required: true,
                       help: "the 10-character team id"),
            SinkOption(key: "bundleID", flag: "--apns-bundle-id", .text(.bundleID), scope: .kind, required: true,
                       help: "the app's bundle id"),
            SinkOption(key: "server", flag: "--apns-server", .server(names: APNsSinkSettings.servers), scope: .kind,
                       help: "production (default), sandbox, or a push server's URL"),
            SinkOption(key: "deviceToken", flag: "--apns-device-token", .secret(environment: true),
                       help: "the activity's push token (hex), for updates and the end"),
            SinkOption(key: "pushToStartToken", flag: "--apns-start-token", .secret(environment: true),
                       help: "a push-to-start token (hex); the start becomes a push-to-start"),
            SinkOption(key: "relevanceScore", flag: "--apns-relevance-score", .number(0...1_000_000, unit: "a score"),
                       help: "relevance-score for every push, when the app shows several activities"),
        ],
        atLeastOne: [["deviceToken", "pushToStartToken"]],
        make: { values, setup throws(SinkSetupError) in
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
            func token(_ name: String) throws(SinkSetupError) -> String? {
                guard let source = values.secret(name) else { return nil }
                let what = name == "deviceToken" ? "APNs device token" : "APNs push-to-start token"
                let (line, origin) = try setup.readLine(source, what: what)
                guard let token = APNsSinkSettings.normalizedToken(line) else { throw .invalid("\(origin): expected one line of hex digits (the \(what))") }
                return token
            }
            let server = values.text("server") ?? "production"
            let settings = APNsSinkSettings(
                baseURL: APNsSinkSettings.servers.first { $0.name == server }?.url ?? server,
                bundleID: values.text("bundleID")!, deviceToken: try token("deviceToken"),
                pushToStartToken: try token("pushToStartToken"), relevanceScore: values.number("relevanceScore"))
            return NetworkSink.apns(settings: settings, tokens: ProviderTokenSource(key: key, keyID: values.text("keyID")!, teamID: values.text("teamID")!),
                                    http: setup.http, spoolDirectory: setup.spoolDirectory, log: setup.log)
        }
    )
}

extension SinkOption.TextRule {
    /// Apple's key and team ids are 10 characters of A–Z and 0–9 (as the developer account shows them).
    static let appleID = Self(expected: "10 characters A-Z and 0-9 (as the developer account shows it)") { text in
        text.unicodeScalars.count == 10 && text.unicodeScalars.allSatisfy { ("A"..."Z").contains($0) || ("0"..."9").contains($0) }
    }

    /// Reverse-DNS: letters, digits, '-' and '.', at least two parts.
    static let bundleID = Self(expected: "a bundle id such as com.example.Workout") { text in
        let parts = text.unicodeScalars.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count >= 2 && parts.allSatisfy { part in
            !part.isEmpty && part.allSatisfy { ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || $0 == "-" }
        }
    }
}
