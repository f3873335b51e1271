/// Where a Live Activity push goes when it is sent, and what APNs' answer teaches: the tokens from
/// files alone (`ConfiguredRoutes`, where no session takes registrations), or the
/// strap's `PushTokenBook` with those files as its fallback (`BookRoutes`). Used on the sink's
/// delivery thread only.
protocol TokenRoutes {
    func route(_ delivery: Delivery, _ push: LiveActivityPush, at now: Int64) -> TokenRegistry.Route
    /// APNs took it (a push-to-start when `pushToStart`).
    func delivered(_ delivery: Delivery, pushToStart: Bool, at now: Int64)
    /// APNs answered 410 for `token` (`text`, at `time`): what to report, or nil to route it again.
    func unregistered(_ token: PushToken, at time: Int64, text: String) -> DeliveryOutcome?
    /// `route` dropped it: worth nothing any more.
    func dropped(_ delivery: Delivery)
}

/// Tokens from files only: a start to the push-to-start token if there is one, everything else to
/// the device token. A 410 stops sending to that token; once every token is unregistered the sink
/// stops (`destinationGone`): nothing can change that during the run.
final class ConfiguredRoutes: TokenRoutes {
    private let configured: TokenRegistry.ConfiguredTokens
    private var unregistered: Set<PushToken> = []

    init(_ configured: TokenRegistry.ConfiguredTokens) {
        self.configured = configured
    }

    func route(_ delivery: Delivery, _ push: LiveActivityPush, at now: Int64) -> TokenRegistry.Route {
        let pushToStart = push.isStart && configured.pushToStart != nil
        guard let token = pushToStart ? configured.pushToStart : configured.device else {
            return .drop("no configured token takes a \(delivery.event)")
        }
        guard !unregistered.contains(token) else { return .drop("token \(token) is unregistered (410); not sent") }
        return .send(to: token, pushToStart: pushToStart)
    }

    func delivered(_ delivery: Delivery, pushToStart: Bool, at now: Int64) {}

    func unregistered(_ token: PushToken, at time: Int64, text: String) -> DeliveryOutcome? {
        unregistered.insert(token)
        let all = Set([configured.device, configured.pushToStart].compactMap { $0 })
        return unregistered.isSuperset(of: all) ? .destinationGone(text) : .rejected("APNs 410 Unregistered: stopped sending to token \(token)")
    }

    func dropped(_ delivery: Delivery) {}
}

/// Tokens registered at run time (the strap's book), the configured ones as their fallback: what
/// has no usable token waits (`DeliveryOutcome.held`) until a registration wakes the sink; a 410
/// marks that token and the push is routed again (to a newer token, or to wait).
struct BookRoutes: TokenRoutes {
    let book: PushTokenBook
    let configured: TokenRegistry.ConfiguredTokens

    func route(_ delivery: Delivery, _ push: LiveActivityPush, at now: Int64) -> TokenRegistry.Route {
        book.route(activity: delivery.activityID, isStart: push.isStart, configured: configured, at: now)
    }

    func delivered(_ delivery: Delivery, pushToStart: Bool, at now: Int64) {
        // With a device token from a file the activity is reached through it: nothing is pending.
        if pushToStart, configured.device == nil { book.pushToStartSent(activity: delivery.activityID, at: now) }
        if delivery.event == "end" { book.finished(activity: delivery.activityID) }
    }

    func unregistered(_ token: PushToken, at time: Int64, text: String) -> DeliveryOutcome? {
        book.unregistered(token, at: time)
        return nil
    }

    func dropped(_ delivery: Delivery) {
        if delivery.event == "end" { book.finished(activity: delivery.activityID) }
    }
}
