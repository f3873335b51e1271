/// The push tokens one strap's Live Activities are reached by, as the app registers them at run time
/// (the app's design notes, DESIGN.md §5, "Push tokens at run time"): each activity's update token, the phone's
/// push-to-start token, and what the APNs sink learnt from sending (a 410, a push-to-start out, an
/// end's dismissal date). Pure: times are Unix seconds the caller passes in; `PushTokenBook` holds
/// it for the threads and the state directory keeps it across runs.
///
/// Rules: the newest registration wins, by its `issuedAt` when both it and the current one carry
/// one, else by arrival; the token it replaces is forgotten. A token APNs answered 410 for stays
/// unusable until a registration issued after the 410 names it again; any other token replaces it. `TokenRegistry+Routing` says
/// where each push goes and what waits.
public struct TokenRegistry: Sendable, Equatable {
    /// What a token is registered for.
    public enum Target: Sendable, Hashable, CustomStringConvertible {
        /// An activity's update token (ActivityKit's `pushTokenUpdates`).
        case activity(String)
        /// The phone's push-to-start token (`pushToStartTokenUpdates`): for the next start.
        case pushToStart

        public var description: String {
            switch self {
            case let .activity(id): "the push token of \(id)"
            case .pushToStart: "the push-to-start token"
            }
        }
    }

    /// One registered token.
    public struct Entry: Sendable, Equatable {
        public var token: PushToken
        /// When the phone issued it, as the app said (Unix seconds); nil when it did not say.
        public var issuedAt: Int64?
        /// When it reached hrbridge.
        public var registeredAt: Int64
        /// When APNs answered 410 Unregistered for it; nil while it is usable.
        public var unregisteredAt: Int64?

        public init(token: PushToken, issuedAt: Int64?, registeredAt: Int64, unregisteredAt: Int64? = nil) {
            self.token = token
            self.issuedAt = issuedAt
            self.registeredAt = registeredAt
            self.unregisteredAt = unregisteredAt
        }

        var usable: Bool { unregisteredAt == nil }
    }

    /// One activity's token and what its pushes wait on.
    public struct ActivityState: Sendable, Equatable {
        public var id: String
        public var token: Entry?
        /// A push-to-start went out for it then, and its update token has not come since.
        public var pushToStartSentAt: Int64?
        /// Its end's dismissal date: once past, what it is still owed is worth nothing.
        public var endDismissal: Int64?

        public init(id: String, token: Entry? = nil, pushToStartSentAt: Int64? = nil, endDismissal: Int64? = nil) {
            self.id = id
            self.token = token
            self.pushToStartSentAt = pushToStartSentAt
            self.endDismissal = endDismissal
        }
    }

    /// A registration the rules turned down.
    public enum Refusal: Error, Sendable, Equatable, CustomStringConvertible {
        /// Issued before the token in place: a late, out-of-order registration.
        case older(issuedAt: Int64, current: Int64)
        /// APNs answered 410 for this very token, after it was issued (or with no issue date to say otherwise).
        case unregisteredByAPNs(at: Int64)
        /// Dated further ahead of this machine's clock than any skew explains.
        case issuedInTheFuture(issuedAt: Int64, now: Int64)

        public var description: String {
            switch self {
            case let .older(issuedAt, current):
                "issuedAt \(issuedAt) is older than the registered token's (\(current)): the newer token stays"
            case let .unregisteredByAPNs(at):
                "APNs answered 410 Unregistered for this token at \(at); register the token the phone issues now"
                    + " (or this one with an issuedAt after \(at))"
            case let .issuedInTheFuture(issuedAt, now):
                "issuedAt \(issuedAt) is more than \(TokenRegistry.allowedClockSkew) s ahead of this machine's clock (\(now))"
            }
        }
    }

    /// What a registration did.
    public enum Registration: Sendable, Equatable {
        /// In place now; the token it replaced (nil: none) is forgotten.
        case registered(replacing: PushToken?)
        /// The token in place, registered again.
        case unchanged
    }

    /// A phone clock more than a day ahead is broken, not skewed: a token dated beyond it would win
    /// against every later registration.
    public static let allowedClockSkew: Int64 = 86_400
    /// Activities remembered at most: a strap runs one at a time and a few ends may wait across
    /// restarts; the cap bounds the file whatever a client does. The oldest goes first.
    public static let maximumActivities = 64

    public internal(set) var pushToStart: Entry?
    /// Oldest first.
    public internal(set) var activities: [ActivityState]
    /// Tokens a sink was configured with (`--apns-device-token-file`) that APNs answered 410 for, and
    /// when: this run only (the next reads its file afresh), so never stored.
    var unregisteredConfigured: [PushToken: Int64] = [:]

    public init(pushToStart: Entry? = nil, activities: [ActivityState] = []) {
        self.pushToStart = pushToStart
        self.activities = activities
    }

    public func activity(_ id: String) -> ActivityState? { activities.first { $0.id == id } }

    /// Registers `token` for `target`, arrived at `now`; `issuedAt` as the app gave it.
    public mutating func register(_ token: PushToken, issuedAt: Int64?, for target: Target,
                                  at now: Int64) -> Result<Registration, Refusal> {
        if let issuedAt, issuedAt > now + Self.allowedClockSkew { return .failure(.issuedInTheFuture(issuedAt: issuedAt, now: now)) }
        let current = entry(for: target)
        let new = Entry(token: token, issuedAt: issuedAt, registeredAt: now)
        guard let current else {
            setEntry(new, for: target)
            return .success(.registered(replacing: nil))
        }
        if current.token == token {
            if let unregisteredAt = current.unregisteredAt {
                // APNs' rule for its 410 timestamp: a registration after it means the token is valid again.
                guard let issuedAt, issuedAt > unregisteredAt else { return .failure(.unregisteredByAPNs(at: unregisteredAt)) }
                setEntry(new, for: target)
                return .success(.registered(replacing: nil))
            }
            var refreshed = current
            refreshed.issuedAt = [current.issuedAt, issuedAt].compactMap { $0 }.max()
            setEntry(refreshed, for: target)
            return .success(.unchanged)
        }
        // Against a token APNs unregistered, any other is better than none: it goes in whatever its date.
        if current.usable, let issuedAt, let currentIssue = current.issuedAt, issuedAt < currentIssue {
            return .failure(.older(issuedAt: issuedAt, current: currentIssue))
        }
        setEntry(new, for: target)
        return .success(.registered(replacing: current.token))
    }

    /// Forgets the token of `target`; false when there was none.
    public mutating func forget(_ target: Target) -> Bool {
        guard entry(for: target) != nil else { return false }
        switch target {
        case .pushToStart: pushToStart = nil
        case let .activity(id): if let index = index(of: id) { activities[index].token = nil }
        }
        return true
    }

    func entry(for target: Target) -> Entry? {
        switch target {
        case .pushToStart: pushToStart
        case let .activity(id): activity(id)?.token
        }
    }

    private mutating func setEntry(_ entry: Entry, for target: Target) {
        switch target {
        case .pushToStart:
            pushToStart = entry
        case let .activity(id):
            let index = stateIndex(id)
            activities[index].token = entry
            activities[index].pushToStartSentAt = nil // the token the push-to-start asked for has come
        }
    }

    func index(of id: String) -> Int? { activities.firstIndex { $0.id == id } }

    /// Where `id`'s state is, made if it has none (the oldest let go beyond `maximumActivities`).
    mutating func stateIndex(_ id: String) -> Int {
        if let index = index(of: id) { return index }
        if activities.count >= Self.maximumActivities { activities.removeFirst(activities.count - Self.maximumActivities + 1) }
        activities.append(ActivityState(id: id))
        return activities.count - 1
    }
}
