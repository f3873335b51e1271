import SinkVocabulary
extension SinkKind {
    /// `--sink https://…`, `{"type": "lifecycle", "url": …}`: start / update / end posted to another
    /// team's lifecycle server (lifecycle-server.openapi.json), with a bearer token from a secret.
    public static let lifecycle = SinkKind(
        name: "lifecycle", selector: .url(schemes: ["http", "https"], option: "url"),
        summary: "start, update and end posted to a lifecycle server",
        options: [
            SinkOption(key: "url", flag: nil, .url, required: true, help: "the lifecycle server's base URL"),
            SinkOption(key: "token", flag: "--token", .secret(environment: true), help: "the bearer token"),
        ],
        make: { values, setup throws(SinkSetupError) in
            // A credential's path is found now: a missing one is a setup error, not a retried delivery.
            let token: SecretSource? = switch values.secret("token") {
            case let .file(reference)?: .file(.path(try setup.path(of: reference)))
            case let other: other
            }
            return NetworkSink.lifecycleServer(baseURL: values.text("url")!, token: token, environment: setup.environment, http: setup.http,
                                               spoolDirectory: setup.spoolDirectory, log: setup.log)
        }
    )
}
