/// Where each Live Activity push goes and what waits, and what sending teaches the registry.
extension TokenRegistry {
    /// The tokens an APNs sink was configured with (files read at start): the fallback of every
    /// activity that has no usable token registered at run time.
    public struct ConfiguredTokens: Sendable, Equatable {
        public var device: PushToken?
        public var pushToStart: PushToken?

        public init(device: PushToken? = nil, pushToStart: PushToken? = nil) {
            self.device = device
            self.pushToStart = pushToStart
        }
    }

    /// What to do with an activity's next push.
    public enum Route: Sendable, Equatable {
        /// To this token; `pushToStart`: the start goes as a push-to-start (attributes, alert).
        case send(to: PushToken, pushToStart: Bool)
        /// Not yet, for this reason; `until`: then it is looked at again (the end's dismissal date).
        case wait(String, until: Int64?)
        /// Never: worth nothing any more.
        case drop(String)
    }

    /// Where `id`'s next push goes at `now`: to its registered update token, whatever the event (a
    /// start to an activity that already has one is an update to it); a start otherwise to the
    /// push-to-start token, unless another activity's push-to-start still waits for its token (a
    /// second would stack a second card on the Lock Screen); otherwise to the configured device
    /// token; otherwise it waits, until its end's dismissal
    /// date, after which it is dropped.
    public func route(activity id: String, isStart: Bool, configured: ConfiguredTokens, at now: Int64) -> Route {
        let state = activity(id)
        if let entry = state?.token, entry.usable { return .send(to: entry.token, pushToStart: false) }
        let device = configured.device.flatMap { unregisteredConfigured[$0] == nil ? $0 : nil }
        if isStart, let start = pushToStartToken(configured: configured) {
            if let other = awaiting, other.id != id, device == nil {
                return .wait("its push-to-start waits: \(other.id) was started by one at \(other.pushToStartSentAt ?? 0) and its "
                    + "push token has not come (a second would stack a second card on the Lock Screen)", until: state?.endDismissal)
            }
            return .send(to: start, pushToStart: true)
        }
        if let device { return .send(to: device, pushToStart: false) }
        if let dismissal = state?.endDismissal, now >= dismissal {
            return .drop("its end's dismissal date (\(dismissal)) passed and no push token came to send it to")
        }
        return .wait(waitingReason(state, isStart: isStart), until: state?.endDismissal)
    }

    private func waitingReason(_ state: ActivityState?, isStart: Bool) -> String {
        if isStart {
            return pushToStart?.unregisteredAt.map { "APNs answered 410 Unregistered for the push-to-start token at \($0); "
                + "its start waits for a new push-to-start token or its own push token" }
                ?? "its start waits for a push-to-start token or its own push token (none registered)"
        }
        if let token = state?.token, let unregisteredAt = token.unregisteredAt {
            return "APNs answered 410 Unregistered for its push token \(token.token) at \(unregisteredAt); its pushes wait for a new registration"
        }
        if let sent = state?.pushToStartSentAt { return "waiting for its push token (the push-to-start went out at \(sent))" }
        return "no push token registered for it yet"
    }

    /// The activity a push-to-start went to whose update token has not come, if any.
    public var awaiting: ActivityState? {
        activities.first { $0.pushToStartSentAt != nil && !($0.token?.usable ?? false) }
    }

    /// What `GET /v1/activities` and `ctl status` say of an activity's token (never the token).
    public func status(of id: String) -> TokenStatus {
        guard let state = activity(id) else { return .none }
        if let token = state.token { return token.usable ? .registered : .unregistered }
        return state.pushToStartSentAt == nil ? .none : .pending
    }

    /// The phone's push-to-start token now: the registered one while usable, else the configured one.
    func pushToStartToken(configured: ConfiguredTokens) -> PushToken? {
        if let entry = pushToStart, entry.usable { return entry.token }
        return configured.pushToStart.flatMap { unregisteredConfigured[$0] == nil ? $0 : nil }
    }

    // MARK: - What sending taught

    /// APNs answered 410 for `token` (at its timestamp, else ours): every entry holding it becomes
    /// unusable, and only those: a newer token registered meanwhile is untouched. True when a
    /// registered entry changed; a token no entry holds is a configured one, remembered for this
    /// run only (or an old one rotated away, for which nothing changes).
    @discardableResult
    public mutating func unregistered(_ token: PushToken, at time: Int64) -> Bool {
        var changed = false
        defer { if !changed, unregisteredConfigured[token] == nil { unregisteredConfigured[token] = time } }
        if pushToStart?.token == token, pushToStart?.unregisteredAt == nil {
            pushToStart?.unregisteredAt = time
            changed = true
        }
        for index in activities.indices where activities[index].token?.token == token && activities[index].token?.unregisteredAt == nil {
            activities[index].token?.unregisteredAt = time
            changed = true
        }
        return changed
    }

    /// A push-to-start for `id` was taken by APNs: its update token is awaited, unless one came
    /// meanwhile (a registration racing the start must not be undone by it).
    public mutating func pushToStartSent(activity id: String, at time: Int64) {
        let index = stateIndex(id)
        guard !(activities[index].token?.usable ?? false) else { return }
        activities[index].pushToStartSentAt = time
    }

    /// The sink took `id`'s end, to be dismissed at `dismissal`.
    public mutating func endAccepted(activity id: String, dismissal: Int64) {
        activities[stateIndex(id)].endDismissal = dismissal
    }

    /// `id` is owed nothing more (its end went out, or was dropped): it and its token are forgotten.
    public mutating func finished(activity id: String) {
        activities.removeAll { $0.id == id }
    }
}

/// An activity's token as `GET /v1/activities` and `ctl status` show it: never the token itself.
public enum TokenStatus: String, Sendable, Equatable {
    /// None registered, none asked for.
    case none
    /// A push-to-start went out for it; its update token has not come.
    case pending
    case registered
    /// APNs answered 410 for it: a new registration is needed.
    case unregistered
}
