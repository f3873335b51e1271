import Sensors

/// Sends the broadcast path's deliveries. A start takes the strap's channel (`ChannelBook.take`:
/// the one the viewers know) or has APNs create one, and with a push-to-start token starts the
/// activity on that phone joined to the channel; an update or an end is published on the channel,
/// and an end that went out frees it for deletion after its dismissal date. Answers: 200 delivered;
/// `ChannelNotRegistered` (deleted from outside) creates a new channel, says so, and publishes on
/// it; 429 backs off; 5xx and timeouts retry; a channel APNs will not create halts the path (its
/// starts and ends are spooled); anything else is refused for that push, with the reason.
final class BroadcastTransmitter: Transmitter {
    private let client: APNsClient
    private let settings: APNsSinkSettings
    private let policy: MessageStoragePolicy
    private let channels: ChannelBook
    private let startTokens: StartTokens
    private let now: @Sendable () -> Timestamp
    private let log: @Sendable (String) -> Void

    init(client: APNsClient, settings: APNsSinkSettings, policy: MessageStoragePolicy, channels: ChannelBook, startTokens: StartTokens,
         now: @escaping @Sendable () -> Timestamp, log: @escaping @Sendable (String) -> Void) {
        self.client = client
        self.settings = settings
        self.policy = policy
        self.channels = channels
        self.startTokens = startTokens
        self.now = now
        self.log = log
    }

    static let name = "apns-broadcast"
    private var app: ChannelRegistry.App { settings.channelApp }
    private var seconds: Int64 { APNsPayload.unixSeconds(now()) }

    func transmit(_ delivery: Delivery) -> DeliveryOutcome {
        guard let push = delivery.message as? BroadcastPush else {
            return .rejected("\(delivery.label) holds no broadcast")
        }
        let outcome = delivery.event == "start" ? start(delivery, push) : publish(delivery, push)
        switch (delivery.event, outcome) {
        case ("end", .delivered), ("end", .rejected):
            // Nothing more goes on the channel for this activity: it is free, and deleted once the
            // end's final state may leave the Lock Screen (at once when `recover` retires it).
            let dismissal = channels.retiring ? seconds : push.dismissalDate ?? seconds
            channels.ended(activity: delivery.activityID, app: app, deleteAfter: dismissal)
        default: break
        }
        return outcome
    }

    private enum ChannelStep {
        case ready(String)
        case failed(DeliveryOutcome)
    }

    private func start(_ delivery: Delivery, _ push: BroadcastPush) -> DeliveryOutcome {
        let channel: String
        switch takeChannel(forStartOf: delivery.activityID) {
        case let .ready(id): channel = id
        case let .failed(outcome): return outcome
        }
        guard let token = startTokens.current else {
            log("sink \(Self.name): \(delivery.activityID) is published on channel \(channel); no push-to-start token, so no phone is "
                + "started on it: the app starts its activity on the channel (pushType: .channel)")
            return .delivered
        }
        let request = push.pushToStart(to: token, joining: channel, settings: settings)
        guard request.body.count <= APNsPayload.byteLimit else {
            return .rejected("its push-to-start is \(request.body.count) bytes with the channel id, over the \(APNsPayload.byteLimit) APNs takes; "
                + "shorten the workout name or interval label")
        }
        switch client.send(request, redacting: token.hex) {
        case let .unsigned(text): return .rejected(text)
        case let .unanswered(text): return .retry(text, retryAfter: nil)
        case let .answered(answer):
            let outcome = APNsTransmitter.outcome(of: answer)
            guard case .destinationGone = outcome else { return outcome }
            startTokens.unregistered(token, at: answer.error?.timestamp.map { $0 / 1000 } ?? seconds)
            return .rejected("\(answer.text) for the push-to-start token \(token): no phone started; the channel \(channel) "
                + "is published on all the same")
        }
    }

    /// The channel `activity` is published on: its own (a start sent again), the strap's free one
    /// (said: the phones on it see the new activity), or one APNs creates now.
    private func takeChannel(forStartOf activity: String) -> ChannelStep {
        let had = channels.snapshot.channel(of: activity, app: app)
        if let taken = channels.take(for: activity, app: app, policy: policy) {
            if had == nil { log("sink \(Self.name): \(activity) is published on channel \(taken.id), kept from the strap's activity before it") }
            return .ready(taken.id)
        }
        return create(for: activity, replacing: nil)
    }

    private func publish(_ delivery: Delivery, _ push: BroadcastPush) -> DeliveryOutcome {
        guard var channel = channels.snapshot.channel(of: delivery.activityID, app: app)?.id else {
            return .rejected("\(delivery.activityID) has no broadcast channel (its start never made one): its \(delivery.event) is not published")
        }
        for _ in 0..<Self.attemptsPerPublish {
            switch client.send(push.broadcast(on: channel, policy: policy, urgent: delivery.urgent, settings: settings)) {
            case let .unsigned(text): return .rejected(text)
            case let .unanswered(text): return .retry(text, retryAfter: nil)
            case let .answered(answer):
                guard answer.reason == ChannelManagement.notRegistered else { return APNsTransmitter.outcome(of: answer) }
                switch create(for: delivery.activityID, replacing: channel) {
                case let .ready(id): channel = id
                case let .failed(outcome): return outcome
                }
            }
        }
        return .retry("APNs answered \(ChannelManagement.notRegistered) for a channel it had just created for \(delivery.activityID)",
                      retryAfter: nil)
    }

    /// A publish that meets a channel deleted from outside goes once more, on the new channel.
    static let attemptsPerPublish = 2

    /// Has APNs create a channel for `activity` (in place of `old`, which APNs no longer has) and
    /// records it before anything is published on it.
    private func create(for activity: String, replacing old: String?) -> ChannelStep {
        switch client.send(ChannelManagement.create(app: app, policy: policy)) {
        case let .unsigned(text): return .failed(.rejected(text))
        case let .unanswered(text): return .failed(.retry(text, retryAfter: nil))
        case let .answered(answer):
            let status = answer.response.status
            guard (200..<300).contains(status) else {
                if status == 429 || (500..<600).contains(status) { return .failed(APNsTransmitter.outcome(of: answer)) }
                return .failed(.halted("APNs refused to create a broadcast channel for \(settings.bundleID): \(answer.text); the app's "
                    + "Broadcast capability must be on (Certificates, Identifiers & Profiles), and an app has at most 10,000 channels an "
                    + "environment ('hrbridge recover' deletes those earlier runs left)"))
            }
            guard let id = ChannelManagement.createdID(answer.response) else {
                return .failed(.halted("APNs answered \(status) to a channel create with no usable channel id (apns-channel-id)"))
            }
            channels.created(id, for: activity, app: app, policy: policy, at: seconds, replacing: old)
            let replaced = old.map { " in place of \($0), which APNs no longer has (\(ChannelManagement.notRegistered)): phones on it must start again on \(id)" }
            log("sink \(Self.name): created broadcast channel \(id) (storage policy \(policy.rawValue)) for \(activity)" + (replaced ?? ""))
            return .ready(id)
        }
    }
}
