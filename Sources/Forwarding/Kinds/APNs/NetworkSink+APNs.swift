import LiveState
import Sensors
import SinkVocabulary

extension NetworkSink {
    /// `--sink apns`: Live Activity pushes to APNs (or a push server speaking its protocol) over HTTP/2.
    /// `now` is the wall clock the provider token's `iat` comes from (never the trace's clock).
    public static func apns(
        settings apns: APNsSinkSettings, tokens: ProviderTokenSource, http: HTTPClientConfiguration = .init(),
        settings: DeliveryWorker.Settings = .init(), spoolDirectory: String?,
        now: @escaping @Sendable () -> Timestamp = WallClock.now, log: @escaping @Sendable (String) -> Void
    ) -> NetworkSink {
        var http = http
        http.requireHTTP2 = true
        let deviceTokens = Set([apns.deviceToken, apns.pushToStartToken].compactMap { $0 })
        return NetworkSink(
            name: "apns", settings: settings,
            spool: spoolDirectory.map { Spool(directory: $0, sinkName: "apns-" + apns.topic) }, log: log,
            makeDelivery: { update throws(SinkError) in try APNsRequest.delivery(for: update.update, settings: apns) },
            makeTransmitter: { [http] in
                APNsTransmitter(client: HTTPClient(configuration: http), tokens: tokens, deviceTokens: deviceTokens, now: now)
            }
        )
    }
}
