import LiveState
import Sensors
import SinkVocabulary

extension NetworkSink {
    /// `--sink apns`: Live Activity pushes to APNs (or a push server speaking its protocol) over HTTP/2.
    /// `pushTokens`: the strap's registry of tokens registered at run time (nil: the configured
    /// tokens alone). `now` is the wall clock the provider token's `iat` and the token
    /// rules go by (never the trace's clock). `besideBroadcast`: the broadcast path carries every
    /// update to the phones on the strap's channel, and starts them; this path sends only what has a
    /// token of its own (an activity the app started itself and registered, a configured device token).
    public static func apns(
        settings apns: APNsSinkSettings, tokens: ProviderTokenSource, pushTokens book: PushTokenBook? = nil, besideBroadcast: Bool = false,
        http: HTTPClientConfiguration = .init(), settings: DeliveryWorker.Settings = .init(), spoolDirectory: String?,
        now: @escaping @Sendable () -> Timestamp = WallClock.now, log: @escaping @Sendable (String) -> Void
    ) -> NetworkSink {
        var http = http
        http.requireHTTP2 = true
        let configured = TokenRegistry.ConfiguredTokens(device: apns.deviceToken.map(PushToken.init(configured:)),
                                                        pushToStart: apns.pushToStartToken.map(PushToken.init(configured:)))
        let deviceTokens = Set([apns.deviceToken, apns.pushToStartToken].compactMap { $0 })
        let sink = NetworkSink(
            name: "apns", settings: settings,
            spool: spoolDirectory.map { Spool(directory: $0, sinkName: "apns-" + apns.topic, holding: [LiveActivityPush.self, HTTPRequest.self]) }, log: log,
            makeDelivery: { encoded throws(SinkError) in
                let update = encoded.update
                if besideBroadcast, apns.deviceToken == nil, !(book?.hasUsableToken(of: update.activityID) ?? false) { return nil }
                let delivery = try APNsRequest.delivery(for: update, settings: apns, everyEvent: book != nil, startsByPush: !besideBroadcast)
                if let book, update.event == .end, let dismissal = update.dismissalDate {
                    book.endAccepted(activity: update.activityID, dismissal: APNsPayload.unixSeconds(dismissal))
                }
                return delivery
            },
            makeTransmitter: { [http] in
                let sender = APNsTransmitter(client: HTTPClient(configuration: http), tokens: tokens, deviceTokens: deviceTokens, now: now)
                let routes: any TokenRoutes = book.map { BookRoutes(book: $0, configured: configured) } ?? ConfiguredRoutes(configured)
                return LiveActivityTransmitter(apns: sender, routes: routes, now: now)
            }
        )
        book?.subscribe(log: log, wake: sink.releaseHeld)
        return sink
    }
}
