import Sensors
import Synchronization
import Platform
import SinkVocabulary

extension SinkKind {
    /// `--sink apns-background`, `{"type": "apns-background", …}` with the team's `"apns": {…}`:
    /// background pushes that wake the app to update its own activity, within iOS's few an hour.
    public static let apnsBackground = SinkKind(
        name: "apns-background", selector: .word("apns-background"),
        summary: "background pushes that wake the app to update its own activity",
        options: APNsTeam.options + [
            SinkOption(key: "deviceToken", flag: "--background-device-token", .secret(environment: true), required: true,
                       help: "the app's device token (hex) for background pushes"),
            SinkOption(key: "payloadKey", flag: "--background-key", .text(.jsonKey),
                       help: "the payload key holding the content state (default contentState)"),
            SinkOption(key: "maxPerHour", flag: "--background-max-per-hour", .number(0...60, unit: "pushes an hour"),
                       help: "routine updates sent at most, spread over the hour (default 3; the start, sensor-lost/back and the end always go)"),
        ],
        make: { values, setup throws(SinkSetupError) in
            let team = try APNsTeam(values, setup)
            let deviceToken = try APNsTeam.token(values, "deviceToken", what: "app's device token", setup)!.hex
            return NetworkSink.apnsBackground(
                deviceToken: deviceToken, bundleID: team.bundleID, baseURL: team.baseURL, tokens: team.tokens,
                payloadKey: values.text("payloadKey") ?? "contentState",
                budget: BackgroundPushBudget(routinePerHour: values.number("maxPerHour") ?? 3),
                http: setup.http, spoolDirectory: setup.spoolDirectory, log: setup.log)
        }
    )
}

extension SinkOption.TextRule {
    /// A key beside `aps`: letters, digits and '_', not `aps` itself nor one the payload already has.
    static let jsonKey = Self(expected: "a key of letters, digits and _ other than aps, activity, sequence, event, staleDate and dismissalDate") { text in
        !["aps", "activity", "sequence", "event", "staleDate", "dismissalDate"].contains(text) && (1...64).contains(text.unicodeScalars.count)
            && text.unicodeScalars.allSatisfy { $0.isASCIILetterOrDigit || $0 == "_" }
    }
}

extension NetworkSink {
    /// Background pushes over HTTP/2 with the team's provider token; `budget` picks the updates.
    static func apnsBackground(
        deviceToken: String, bundleID: String, baseURL: String, tokens: ProviderTokenSource, payloadKey: String,
        budget: BackgroundPushBudget, http: HTTPClientConfiguration, settings: DeliveryWorker.Settings = .init(),
        spoolDirectory: String?, now: @escaping @Sendable () -> Timestamp = WallClock.now, log: @escaping @Sendable (String) -> Void
    ) -> NetworkSink {
        var http = http
        http.requireHTTP2 = true
        let budget = Mutex(budget)
        return NetworkSink(
            name: "apns-background", settings: settings,
            spool: spoolDirectory.map { Spool(directory: $0, sinkName: "apns-background-" + bundleID, holding: [HTTPRequest.self]) }, log: log,
            makeDelivery: { encoded throws(SinkError) in
                let update = encoded.update
                guard budget.withLock({ $0.admits(update) }) else { return nil }
                return try BackgroundPushRequest.delivery(for: update, deviceToken: deviceToken, bundleID: bundleID,
                                                          key: payloadKey, baseURL: baseURL)
            },
            makeTransmitter: { [http] in
                APNsTransmitter(client: HTTPClient(configuration: http), tokens: tokens, deviceTokens: [deviceToken], now: now)
            }
        )
    }
}
