import Sensors

extension NetworkSink {
    static let fcmURL = "https://fcm.googleapis.com"

    /// FCM HTTP v1 messages to one registration token or topic. `now` is the wall clock the OAuth
    /// assertion's times come from (never a replayed trace's).
    static func fcm(
        account: FCMServiceAccount, project: String, target: FCMMessage.Target, baseURL: String,
        http: HTTPClientConfiguration, settings: DeliveryWorker.Settings = .init(), spoolDirectory: String?,
        now: @escaping @Sendable () -> Timestamp = WallClock.now, log: @escaping @Sendable (String) -> Void
    ) -> NetworkSink {
        NetworkSink(
            name: "fcm", settings: settings,
            spool: spoolDirectory.map { Spool(directory: $0, sinkName: "fcm-" + project, holding: [HTTPRequest.self]) }, log: log,
            makeDelivery: { update throws(SinkError) in
                try FCMRequest.delivery(for: update.update, target: target, project: project, baseURL: baseURL)
            },
            makeTransmitter: {
                let client = HTTPClient(configuration: http)
                return FCMTransmitter(client: client, accessToken: GoogleAccessToken(account: account, client: client, now: now), target: target)
            }
        )
    }
}
