import Synchronization

/// One strap's `ChannelRegistry`, shared by the threads that use it: the APNs sink's broadcast path
/// (taking, creating and freeing channels as it sends), its janitor (deleting them), and those who
/// tell the app which channel to join (the HTTP API, MQTT's retained topic). Every change is stored
/// (the state directory's file) before anyone learns of it, so a channel APNs created is never
/// forgotten by a crash; watchers are told after each change.
public final class ChannelBook: Sendable {
    /// Writes the registry where it outlives the run; throws why not.
    public typealias Store = @Sendable (ChannelRegistry) throws(StoreFailure) -> Void

    public struct StoreFailure: Error, Sendable, Equatable, CustomStringConvertible {
        public var description: String
        public init(_ description: String) { self.description = description }
    }

    private let registry: Mutex<ChannelRegistry>
    /// Channels the janitor is deleting now: a start must not take one.
    private let deleting = Mutex<Set<String>>([])
    private let store: Store?
    private let watchers = Mutex<[@Sendable (ChannelRegistry) -> Void]>([])
    private let log = Mutex<(@Sendable (String) -> Void)?>(nil)
    /// `hrbridge recover`: no activity of the strap will start, so each channel is deleted as soon as
    /// what is owed on it went out, not kept for the next activity.
    public let retiring: Bool

    /// `store` nil: kept in memory only (`replay --fast`, which keeps no state).
    public init(_ registry: ChannelRegistry = ChannelRegistry(), store: Store? = nil, retiring: Bool = false) {
        self.registry = Mutex(registry)
        self.store = store
        self.retiring = retiring
    }

    public var snapshot: ChannelRegistry { registry.withLock { $0 } }

    /// `body` runs (any thread) after every change, with the registry as it is then.
    public func watch(_ body: @escaping @Sendable (ChannelRegistry) -> Void) {
        watchers.withLock { $0.append(body) }
    }

    /// Where a change that could not be stored is said (the sink's log).
    func sayFailures(to log: @escaping @Sendable (String) -> Void) {
        self.log.withLock { $0 = log }
    }

    func take(for activity: String, app: ChannelRegistry.App, policy: MessageStoragePolicy) -> ChannelRegistry.Channel? {
        // Read under the registry's lock, as `claimDue` marks them: a channel is taken or deleted, never both.
        change { registry in registry.take(for: activity, app: app, policy: policy, excluded: deleting.withLock { $0 }) }
    }

    func created(_ id: String, for activity: String, app: ChannelRegistry.App, policy: MessageStoragePolicy, at now: Int64,
                 replacing old: String? = nil) {
        change { $0.created(id, for: activity, app: app, policy: policy, at: now, replacing: old) }
    }

    func ended(activity: String, app: ChannelRegistry.App, deleteAfter: Int64) {
        change { $0.ended(activity: activity, app: app, deleteAfter: deleteAfter) }
    }

    func retire(app: ChannelRegistry.App, keeping owed: Set<String>, at now: Int64) {
        change { $0.retire(app: app, keeping: owed, at: now) }
    }

    /// The channels of `app` due at `now`, now marked as being deleted (a start passes them by).
    func claimDue(app: ChannelRegistry.App, at now: Int64) -> [ChannelRegistry.Channel] {
        registry.withLock { registry in
            deleting.withLock { deleting in
                let due = registry.due(app: app, at: now).filter { !deleting.contains($0.id) }
                deleting.formUnion(due.map(\.id))
                return due
            }
        }
    }

    /// The janitor is done with `id`: deleted at APNs (forgotten), or not (kept, due again later).
    func finishedDeleting(_ id: String, deleted: Bool) {
        if deleted { change { $0.deleted(id) } }
        deleting.withLock { _ = $0.remove(id) }
    }

    /// Applies `body`, stores the result if it changed anything, then tells the watchers. A failure
    /// to store is said: the change holds for this run, and a crash would forget it.
    @discardableResult
    private func change<Value>(_ body: (inout ChannelRegistry) -> Value) -> Value {
        let (value, changed, failure): (Value, ChannelRegistry?, StoreFailure?) = registry.withLock { current in
            let before = current
            let value = body(&current)
            guard current != before else { return (value, nil, nil) }
            guard let store else { return (value, current, nil) }
            do throws(StoreFailure) {
                try store(current)
                return (value, current, nil)
            } catch {
                return (value, current, error)
            }
        }
        if let failure { log.withLock { $0 }?("broadcast channels: \(failure); kept for this run only") }
        if let changed { for watcher in watchers.withLock({ $0 }) { watcher(changed) } }
        return value
    }
}
