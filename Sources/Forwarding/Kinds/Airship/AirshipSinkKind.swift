import Platform
import SinkVocabulary

extension SinkKind {
    /// `--sink airship`, `{"type": "airship", …}` with the app's `"airship": {…}`: Live Activity pushes
    /// through Airship (`POST /api/push`), the activity tracked by the app under a name.
    public static let airship = SinkKind(
        name: "airship", selector: .word("airship"),
        summary: "Live Activity pushes through Airship",
        options: [
            SinkOption(key: "server", flag: "--airship-server", .server(names: AirshipSinkSettings.servers), scope: .shared("airship"),
                       help: "us (default: go.urbanairship.com), eu (go.airship.eu), or a server's URL"),
            SinkOption(key: "appKey", flag: "--airship-app-key", .text(.airshipAppKey), scope: .shared("airship"), required: true,
                       help: "the Airship app key"),
            SinkOption(key: "masterSecret", flag: "--airship-master-secret", .secret(environment: true), scope: .shared("airship"),
                       help: "the app's master secret (HTTP Basic with the app key)"),
            SinkOption(key: "token", flag: "--airship-token", .secret(environment: true), scope: .shared("airship"),
                       help: "a bearer token for the app (instead of the master secret)"),
            SinkOption(key: "channel", flag: "--airship-channel", .text(.airshipAudience), required: true,
                       help: "who receives it: an iOS channel id, or all"),
            SinkOption(key: "activityName", flag: "--airship-activity-name", .text(.nonEmpty),
                       help: "the name the app tracks the activity under (default: the activity id)"),
            SinkOption(key: "relevanceScore", flag: "--airship-relevance-score", .number(0...1_000_000, unit: "a score"),
                       help: "relevance_score for every push, when the app shows several activities"),
        ],
        atLeastOne: [["masterSecret", "token"]],
        atMostOne: [["masterSecret", "token"]],
        make: { values, setup throws(SinkSetupError) in
            let authorization: AirshipAuthorization = if let secret = values.secret("masterSecret") {
                .masterSecret(try setup.readLine(secret, what: "Airship master secret").line)
            } else {
                .bearer(try setup.readLine(values.secret("token")!, what: "Airship bearer token").line)
            }
            let server = values.text("server") ?? AirshipSinkSettings.servers[0].name
            let channel = values.text("channel")!
            let settings = AirshipSinkSettings(
                baseURL: AirshipSinkSettings.servers.first { $0.name == server }?.url ?? server,
                appKey: values.text("appKey")!, audience: channel == "all" ? .all : .channel(channel),
                activityName: values.text("activityName"), relevanceScore: values.number("relevanceScore"))
            return NetworkSink.airship(settings: settings, authorization: authorization, http: setup.http,
                                       spoolDirectory: setup.spoolDirectory, log: setup.log)
        }
    )
}

extension SinkOption.TextRule {
    /// Airship shows app keys as 22 characters of letters, digits, '-' and '_'; any such run is taken.
    static let airshipAppKey = Self(expected: "an Airship app key (letters, digits, - and _)") { text in
        (1...64).contains(text.unicodeScalars.count)
            && text.unicodeScalars.allSatisfy { $0.isASCIILetterOrDigit || $0 == "-" || $0 == "_" }
    }

    /// `all`, or a channel id: a UUID (8-4-4-4-12 hex digits).
    static let airshipAudience = Self(expected: "all or an iOS channel id (a UUID)") { text in
        guard text != "all" else { return true }
        let groups = text.unicodeScalars.split(separator: "-", omittingEmptySubsequences: false)
        return groups.map(\.count) == [8, 4, 4, 4, 12]
            && groups.allSatisfy { $0.allSatisfy { ("0"..."9").contains($0) || ("a"..."f").contains($0) || ("A"..."F").contains($0) } }
    }

    /// Any text with something in it besides spaces.
    static let nonEmpty = Self(expected: "a non-empty text") { text in
        text.unicodeScalars.contains { !$0.properties.isWhitespace }
    }
}
