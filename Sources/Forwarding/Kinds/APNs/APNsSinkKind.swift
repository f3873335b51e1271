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
                       help: "the activity's push token (hex), for updates and the end; tokens registered at run time come first"),
            SinkOption(key: "pushToStartToken", flag: "--apns-start-token", .secret(environment: true),
                       help: "a push-to-start token (hex); the start becomes a push-to-start"),
            SinkOption(key: "activityIDAttribute", flag: "--apns-activity-id-attribute", .text(.attributeKey),
                       help: "the attributes key a push-to-start names hrbridge's activity by (default "
                           + "\(APNsSinkSettings.defaultActivityIDAttribute); none: leave the attributes as they are)"),
            SinkOption(key: "relevanceScore", flag: "--apns-relevance-score", .number(0...1_000_000, unit: "a score"),
                       help: "relevance-score for every push, when the app shows several activities"),
            SinkOption(key: "broadcast", flag: "--apns-broadcast", .numberInObject(field: "storagePolicy", choices: MessageStoragePolicy.choices),
                       help: "publish every update on the strap's broadcast channel (iOS 18), one push for every phone on it, with this "
                           + "message storage policy; the start goes as a push-to-start joining it; GET /v1/straps/{strap}/channel "
                           + "and MQTT's <prefix>/<strap>/channel tell the app its id"),
        ],
        make: { values, setup throws(SinkSetupError) in
            let broadcast = values.number("broadcast").flatMap { MessageStoragePolicy(rawValue: Int($0)) }
            // Tokens registered at run time need a session to take them (run, paced replay, recover).
            guard broadcast != nil || values.secret("deviceToken") != nil || values.secret("pushToStartToken") != nil || setup.pushTokens != nil else {
                throw .invalid("apns: no token to push to: give a device or push-to-start token (file or variable), or run it where "
                    + "the app can register tokens (run, replay --speed: MQTT's push-token topics with --mqtt-control), or publish "
                    + "on a broadcast channel (--apns-broadcast)")
            }
            let team = try APNsTeam(values, setup)
            let deviceToken = try APNsTeam.token(values, "deviceToken", what: "APNs device token", setup)
            let pushToStartToken = try APNsTeam.token(values, "pushToStartToken", what: "APNs push-to-start token", setup)
            let attribute = values.text("activityIDAttribute") ?? APNsSinkSettings.defaultActivityIDAttribute
            let settings = APNsSinkSettings(
                baseURL: team.baseURL, bundleID: team.bundleID, deviceToken: deviceToken?.hex, pushToStartToken: pushToStartToken?.hex,
                relevanceScore: values.number("relevanceScore"), activityIDAttribute: attribute == "none" ? nil : attribute,
                broadcast: broadcast)
            guard let broadcast else {
                return NetworkSink.apns(settings: settings, tokens: team.tokens, pushTokens: setup.pushTokens, http: setup.http,
                                        spoolDirectory: setup.spoolDirectory, log: setup.log)
            }
            let channel = NetworkSink.apnsBroadcast(settings: settings, policy: broadcast, tokens: team.tokens,
                                                    channels: setup.channels, pushTokens: setup.pushTokens,
                                                    http: setup.http, spoolDirectory: setup.spoolDirectory, log: setup.log)
            // Beside the channel, pushes to tokens only where one can come: a file's, or the app's at run time.
            guard settings.deviceToken != nil || setup.pushTokens != nil else { return channel }
            return SinkGroup([
                NetworkSink.apns(settings: settings, tokens: team.tokens, pushTokens: setup.pushTokens, besideBroadcast: true,
                                 http: setup.http, spoolDirectory: setup.spoolDirectory, log: setup.log),
                channel,
            ])
        }
    )
}

extension SinkOption.TextRule {
    /// A Swift property name the app's `ActivityAttributes` can declare (letters, digits, _; not first a
    /// digit), other than the attributes' own `workoutName`; or `none`.
    static let attributeKey = Self(expected: "a Swift property name other than workoutName, or none") { text in
        guard let first = text.unicodeScalars.first, !("0"..."9").contains(first), text != "workoutName", text.unicodeScalars.count <= 64 else { return false }
        return text.unicodeScalars.allSatisfy { $0.isASCIILetterOrDigit || $0 == "_" }
    }

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
