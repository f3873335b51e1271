import Synchronization

/// One strap's `TokenRegistry`, shared by the threads that use it: the session registering what the
/// app sends (`LiveSession`'s token entry points, which MQTT's topics and the HTTP routes call),
/// and each APNs sink's delivery thread routing its pushes and reporting what APNs answered.
/// Every change is stored (the state directory's file) before it is used, so a registration that
/// was answered is never lost to a crash; the sinks subscribed are woken when a token came or an
/// activity stopped waiting.
public final class PushTokenBook: Sendable {
    /// Writes the registry where it outlives the run; throws why not (said, never swallowed).
    public typealias Store = @Sendable (TokenRegistry) throws(StoreFailure) -> Void

    public struct StoreFailure: Error, Sendable, Equatable, CustomStringConvertible {
        public var description: String
        public init(_ description: String) { self.description = description }
    }

    /// Why a registration was not taken.
    public enum Failure: Error, Sendable, Equatable, CustomStringConvertible {
        case refused(TokenRegistry.Refusal)
        /// It could not be stored: it would not survive a restart, so it is not in effect either.
        case notStored(StoreFailure)

        public var description: String {
            switch self {
            case let .refused(refusal): refusal.description
            case let .notStored(failure): "not stored: \(failure)"
            }
        }
    }

    private struct Subscriber {
        var log: @Sendable (String) -> Void
        var wake: @Sendable () -> Void
    }

    private let registry: Mutex<TokenRegistry>
    private let store: Store?
    private let subscribers = Mutex<[Subscriber]>([])

    /// `store` nil: kept in memory only (nothing outlives the run).
    public init(_ registry: TokenRegistry = TokenRegistry(), store: Store? = nil) {
        self.registry = Mutex(registry)
        self.store = store
    }

    /// A sink that routes through the book: `wake` when what it waits for may have changed, `log`
    /// for a change it caused that could not be stored.
    public func subscribe(log: @escaping @Sendable (String) -> Void, wake: @escaping @Sendable () -> Void) {
        subscribers.withLock { $0.append(Subscriber(log: log, wake: wake)) }
    }

    public var snapshot: TokenRegistry { registry.withLock { $0 } }

    /// Whether a sink routes by it (an APNs sink of the strap): only then does a token status mean anything.
    public var isUsed: Bool { subscribers.withLock { !$0.isEmpty } }

    public func status(of activity: String) -> TokenStatus { registry.withLock { $0.status(of: activity) } }

    // MARK: - The app's registrations

    /// Registers `token` for `target` (arrived at `now`, Unix seconds), stored before it is used.
    public func register(_ token: PushToken, issuedAt: Int64?, for target: TokenRegistry.Target,
                         at now: Int64) throws(Failure) -> TokenRegistry.Registration {
        let registration: TokenRegistry.Registration = try change { registry throws(Failure) in
            switch registry.register(token, issuedAt: issuedAt, for: target, at: now) {
            case let .success(registration): return registration
            case let .failure(refusal): throw .refused(refusal)
            }
        }
        if registration != .unchanged { wakeSubscribers() }
        return registration
    }

    /// Forgets `target`'s token; false when there was none. What it would have taken waits again.
    public func forget(_ target: TokenRegistry.Target) throws(Failure) -> Bool {
        try change { registry throws(Failure) in registry.forget(target) }
    }

    // MARK: - What the sinks learn

    public func route(activity: String, isStart: Bool, configured: TokenRegistry.ConfiguredTokens, at now: Int64) -> TokenRegistry.Route {
        registry.withLock { $0.route(activity: activity, isStart: isStart, configured: configured, at: now) }
    }

    /// The push-to-start token a start goes to now (the broadcast path's, which joins it to a channel).
    func pushToStartToken(configured: TokenRegistry.ConfiguredTokens) -> PushToken? {
        registry.withLock { $0.pushToStartToken(configured: configured) }
    }

    /// Whether `activity` has a registered update token APNs has not refused.
    func hasUsableToken(of activity: String) -> Bool {
        registry.withLock { $0.activity(activity)?.token?.usable ?? false }
    }

    public func unregistered(_ token: PushToken, at time: Int64) {
        record { $0.unregistered(token, at: time) }
    }

    public func pushToStartSent(activity: String, at time: Int64) {
        record { $0.pushToStartSent(activity: activity, at: time); return true }
    }

    public func endAccepted(activity: String, dismissal: Int64) {
        record { $0.endAccepted(activity: activity, dismissal: dismissal); return true }
    }

    /// `activity` is owed nothing more: forgotten, and a start held behind its pending token may go.
    public func finished(activity: String) {
        let wasAwaited = registry.withLock { $0.awaiting?.id == activity }
        record { registry in
            let known = registry.activity(activity) != nil
            registry.finished(activity: activity)
            return known
        }
        if wasAwaited { wakeSubscribers() }
    }

    // MARK: -

    /// Applies `body` to a copy, stores the copy, and only then puts it in place.
    private func change<Value>(_ body: (inout TokenRegistry) throws(Failure) -> Value) throws(Failure) -> Value {
        try registry.withLock { current throws(Failure) -> Value in
            var copy = current
            let value = try body(&copy)
            guard copy != current else { return value }
            if let store {
                do throws(StoreFailure) {
                    try store(copy)
                } catch {
                    throw .notStored(error)
                }
            }
            current = copy
            return value
        }
    }

    /// A change the sending side learnt: in effect at once (APNs has spoken), stored when `body`
    /// says it changed something kept; a failure to store is said in the subscribers' logs.
    private func record(_ body: (inout TokenRegistry) -> Bool) {
        let failure: StoreFailure? = registry.withLock { current in
            guard body(&current), let store else { return nil }
            do throws(StoreFailure) {
                try store(current)
                return nil
            } catch {
                return error
            }
        }
        guard let failure else { return }
        for subscriber in subscribers.withLock({ $0 }) { subscriber.log("push tokens: \(failure); kept for this run only") }
    }

    private func wakeSubscribers() {
        for subscriber in subscribers.withLock({ $0 }) { subscriber.wake() }
    }
}
