import Platform
import SinkVocabulary

extension SinkKind {
    /// `--sink fcm`, `{"type": "fcm", …}` with the project's `"fcm": {…}`: Android's ongoing workout
    /// notification through Firebase Cloud Messaging (HTTP v1), with a service account's OAuth token.
    public static let fcm = SinkKind(
        name: "fcm", selector: .word("fcm"),
        summary: "Android messages through Firebase Cloud Messaging",
        options: [
            SinkOption(key: "serviceAccount", flag: "--fcm-service-account", .secret(environment: false), scope: .shared("fcm"),
                       required: true, help: "the Google service-account key file (JSON) of the Firebase project"),
            SinkOption(key: "project", flag: "--fcm-project", .text(.googleProjectID), scope: .shared("fcm"),
                       help: "the Firebase project id (default: the key file's project_id)"),
            SinkOption(key: "server", flag: "--fcm-server", .server(names: [(name: "google", url: NetworkSink.fcmURL)]), scope: .shared("fcm"),
                       help: "google (default: fcm.googleapis.com) or a server's URL"),
            SinkOption(key: "registrationToken", flag: "--fcm-token", .secret(environment: true),
                       help: "the app's registration token on the phone"),
            SinkOption(key: "topic", flag: "--fcm-topic", .text(.fcmTopic),
                       help: "a topic the apps subscribe to (instead of a registration token)"),
        ],
        atLeastOne: [["registrationToken", "topic"]],
        atMostOne: [["registrationToken", "topic"]],
        make: { values, setup throws(SinkSetupError) in
            guard case let .file(reference)? = values.secret("serviceAccount") else { throw .invalid("fcm: no service-account key file") }
            let account = try FCMServiceAccount(contentsOfFile: try setup.path(of: reference))
            let target: FCMMessage.Target = if let topic = values.text("topic") {
                .topic(topic)
            } else {
                .token(try setup.readLine(values.secret("registrationToken")!, what: "FCM registration token").line)
            }
            let server = values.text("server") ?? "google"
            return NetworkSink.fcm(account: account, project: values.text("project") ?? account.projectID, target: target,
                                   baseURL: server == "google" ? NetworkSink.fcmURL : server,
                                   http: setup.http, spoolDirectory: setup.spoolDirectory, log: setup.log)
        }
    )
}

extension SinkOption.TextRule {
    /// Google project ids: 6–30 lower-case letters, digits and '-', starting with a letter.
    static let googleProjectID = Self(expected: "a project id such as my-app-1234 (lower-case letters, digits and -)") { text in
        let scalars = Array(text.unicodeScalars)
        return (6...30).contains(scalars.count) && ("a"..."z").contains(scalars[0])
            && scalars.allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "-" }
    }

    /// FCM topic names: letters, digits and -_.~%, up to 900 characters.
    static let fcmTopic = Self(expected: "a topic name (letters, digits and -_.~%)") { text in
        (1...900).contains(text.unicodeScalars.count) && text.unicodeScalars.allSatisfy {
            $0.isASCIILetterOrDigit || "-_.~%".unicodeScalars.contains($0)
        }
    }
}
