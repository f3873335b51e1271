import Platform
import SinkVocabulary

extension SinkKind {
    /// `--sink apns`, `{"type": "apns", …}` with the team's `"apns": {…}`: Live Activity pushes over
    /// HTTP/2 to APNs, signed with the team's .p8 key (ES256 provider token).
    public static let apns = SinkKind(
        name: "apns", selector: .word("apns"),
        summary: "Live Activity pushes to APNs (or a server speaking its protocol)",
        options: APNsTeam.options + [
            SinkOption(key: "deviceToken", flag: "--apns-device-token", .secret(environment: true),
                       help: "the activity's push token (hex), for updates and the end"),
            SinkOption(key: "pushToStartToken", flag: "--apns-start-token", .secret(environment: true),
                       help: "a push-to-start token (hex); the start becomes a push-to-start"),
            SinkOption(key: "relevanceScore", flag: "--apns-relevance-score", .number(0...1_000_000, unit: "a score"),
                       help: "relevance-score for every push, when the app shows several activities"),
        ],
        atLeastOne: [["deviceToken", "pushToStartToken"]],
        make: { values, setup throws(SinkSetupError) in
            let team = try APNsTeam(values, setup)
            let settings = APNsSinkSettings(
                baseURL: team.baseURL, bundleID: team.bundleID,
                deviceToken: try APNsTeam.token(values, "deviceToken", what: "APNs device token", setup),
                pushToStartToken: try APNsTeam.token(values, "pushToStartToken", what: "APNs push-to-start token", setup),
                relevanceScore: values.number("relevanceScore"))
            return NetworkSink.apns(settings: settings, tokens: team.tokens, http: setup.http, spoolDirectory: setup.spoolDirectory, log: setup.log)
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
            !part.isEmpty && part.allSatisfy { $0.isASCIILetterOrDigit || $0 == "-" }
        }
    }
}
