import Sensors

extension NetworkSink {
    /// The APNs sink's broadcast path (`--apns-broadcast`): every update of the strap published on
    /// its channel, the start as a push-to-start joining it (when the phone's push-to-start token is
    /// known), with its own queue, retries and spool beside the token path; and the janitor that
    /// deletes the channel once its last end's dismissal date has passed. `channels`: the strap's
    /// book (nil: kept in memory only, as `replay --fast` keeps no state). `now` is the wall clock.
    static func apnsBroadcast(
        settings apns: APNsSinkSettings, policy: MessageStoragePolicy, tokens: ProviderTokenSource, channels: ChannelBook,
        pushTokens book: PushTokenBook?, http: HTTPClientConfiguration = .init(), settings: DeliveryWorker.Settings = .init(),
        spoolDirectory: String?, now: @escaping @Sendable () -> Timestamp = WallClock.now, log: @escaping @Sendable (String) -> Void
    ) -> NetworkSink {
        var http = http
        http.requireHTTP2 = true
        channels.sayFailures(to: log)
        let startToken = apns.pushToStartToken.map(PushToken.init(configured:))
        let janitor = ChannelJanitor(app: apns.channelApp, channels: channels, schedules: settings, now: now, log: log) { [http] in
            APNsClient(client: HTTPClient(configuration: http), tokens: tokens, now: now)
        }
        channels.watch { [weak janitor] _ in janitor?.wake() }
        let sink = NetworkSink(
            name: BroadcastTransmitter.name, settings: settings,
            spool: spoolDirectory.map { Spool(directory: $0, sinkName: "\(BroadcastTransmitter.name)-\(apns.bundleID)", holding: [BroadcastPush.self]) }, log: log,
            makeDelivery: { encoded throws(SinkError) in try BroadcastRequest.delivery(for: encoded.update, settings: apns) },
            makeTransmitter: { [http] in
                BroadcastTransmitter(client: APNsClient(client: HTTPClient(configuration: http), tokens: tokens, now: now), settings: apns,
                                     policy: policy, channels: channels, startTokens: StartTokens(book: book, configured: startToken),
                                     now: now, log: log)
            }
        )
        sink.afterFinish = { leftOver, deadline in janitor.finish(until: deadline, owed: Set(leftOver.map(\.activityID))) }
        return sink
    }
}
