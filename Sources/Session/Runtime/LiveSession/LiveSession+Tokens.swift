import Forwarding
import Sensors

/// Push tokens the app registers at run time, from any surface (MQTT's push-token topics now, the
/// HTTP routes after them): one entry point, so the rules, checks and answers are the same.
extension LiveSession {
    /// Parses and applies `request` on the session's queue: a token for an activity this strap has
    /// had (its ledger: running, or still owed an end), or the push-to-start token; stored before
    /// it is used, the APNs sinks woken. `reply` gets the receipt, or the refusal.
    public func pushToken(_ request: PushTokenRequest, reply: @escaping @Sendable (Result<PushTokenReceipt, PushTokenRefusal>) -> Void) {
        queue.async { [self] in
            let result = applyPushToken(request)
            switch result {
            case let .success(receipt):
                let what = receipt.activity.map { "push token of \($0)" } ?? "push-to-start token"
                console.warn("\(request.origin): \(what) \(receipt.change.rawValue)")
            case let .failure(refusal):
                console.warn("\(request.origin): refused: \(refusal.message)")
            }
            reply(result)
        }
    }

    /// The token status of each activity this session knows, oldest first (none without a book).
    public func pushTokenStatuses() -> [(activity: String, status: TokenStatus)] {
        queue.sync {
            journal.ledger.entries.map { entry in
                (entry.lastUpdate.activityID, sinks.pushTokens?.status(of: entry.lastUpdate.activityID) ?? .none)
            }
        }
    }

    private func applyPushToken(_ request: PushTokenRequest) -> Result<PushTokenReceipt, PushTokenRefusal> {
        guard let book = sinks.pushTokens else {
            return .failure(PushTokenRefusal(.unavailable, "this run takes no push tokens (no state directory for them)"))
        }
        guard phase != .over else { return .failure(PushTokenRefusal(.unavailable, "the session has ended")) }
        var body: PushTokenBody?
        if case let .register(bytes) = request.action {
            switch PushTokenBody.parse(bytes) {
            case let .success(parsed): body = parsed
            case let .failure(refusal): return .failure(refusal)
            }
        }
        let target: TokenRegistry.Target
        switch request.target {
        case .pushToStart:
            target = .pushToStart
        case let .activity(named):
            if let named, let inBody = body?.activity, inBody != named {
                return .failure(PushTokenRefusal(.badRequest, "activity: the body names \(inBody), the request \(named)"))
            }
            switch knownActivity(named ?? body?.activity, book: book) {
            case let .success(id): target = .activity(id)
            case let .failure(refusal): return .failure(refusal)
            }
        }
        let activity: String? = if case let .activity(id) = target { id } else { nil }
        let change: PushTokenReceipt.Change
        do throws(PushTokenBook.Failure) {
            if let body {
                let now = WallClock.unixSeconds()
                let registration = try book.register(body.token, issuedAt: body.issuedAt, for: target, at: now)
                change = registration == .unchanged ? .unchanged : .registered
            } else {
                change = try book.forget(target) ? .forgotten : .absent
            }
        } catch {
            switch error {
            case let .refused(refusal): return .failure(PushTokenRefusal(.conflict, "\(target): \(refusal)"))
            case let .notStored(failure): return .failure(PushTokenRefusal(.unavailable, "\(target) \(failure)"))
            }
        }
        return .success(PushTokenReceipt(activity: activity, change: change, status: activity.map { book.status(of: $0) }))
    }

    /// `named`, if this strap has had it; with no name, the activity awaiting its token, else the newest.
    private func knownActivity(_ named: String?, book: PushTokenBook) -> Result<String, PushTokenRefusal> {
        let known = journal.ledger.entries.map(\.lastUpdate.activityID)
        if let named {
            guard known.contains(named) else {
                return .failure(PushTokenRefusal(.unknownActivity, "no activity \(named) on this strap"
                    + (known.isEmpty ? "" : " (it has \(known.suffix(3).joined(separator: ", ")))")))
            }
            return .success(named)
        }
        if let awaiting = book.snapshot.awaiting?.id, known.contains(awaiting) { return .success(awaiting) }
        guard let newest = known.last else { return .failure(PushTokenRefusal(.unknownActivity, "no activity yet on this strap")) }
        return .success(newest)
    }
}
