import Platform

/// The broadcast channels one strap's Live Activities are published on (iOS 18), as the APNs sink
/// creates, reuses and deletes them. Pure: times are Unix seconds the caller passes in; `ChannelBook`
/// holds it for the threads and the state directory keeps it across runs (`ChannelRegistry+Coding`).
///
/// Rules: a channel serves the strap's activities one after another, each in turn recorded on it.
/// A start takes the channel its app (management server, bundle id) already has with the same
/// storage policy and no activity on it, so after a restart the phones that joined keep their
/// channel id; only when there is none is one created. An end that went out frees the channel and
/// dates its deletion: the end's dismissal date, after which nothing is left to show on it. It is
/// deleted then, unless a start took it first.
public struct ChannelRegistry: Sendable, Equatable {
    /// Which app's channels: they are per bundle id and per APNs environment (its management host).
    public struct App: Sendable, Hashable {
        public var managementURL: String
        public var bundleID: String

        public init(managementURL: String, bundleID: String) {
            self.managementURL = managementURL
            self.bundleID = bundleID
        }
    }

    public struct Channel: Sendable, Equatable {
        /// APNs' id for it (base64), which phones start their activity with.
        public var id: String
        public var app: App
        public var storagePolicy: MessageStoragePolicy
        public var createdAt: Int64
        /// The activity published on it now; nil once that activity's end went out.
        public var activity: String?
        /// When it may be deleted: its last end's dismissal date; nil while an activity is on it.
        public var deleteAfter: Int64?

        public init(id: String, app: App, storagePolicy: MessageStoragePolicy, createdAt: Int64, activity: String?,
                    deleteAfter: Int64? = nil) {
            self.id = id
            self.app = app
            self.storagePolicy = storagePolicy
            self.createdAt = createdAt
            self.activity = activity
            self.deleteAfter = deleteAfter
        }

        public var isFree: Bool { activity == nil }
    }

    /// Oldest first.
    public internal(set) var channels: [Channel]

    public init(channels: [Channel] = []) {
        self.channels = channels
    }

    /// The channel `activity` is published on, for `app`.
    public func channel(of activity: String, app: App) -> Channel? {
        channels.first { $0.app == app && $0.activity == activity }
    }

    /// The channel phones should start their activity on now: the newest with an activity on it,
    /// else the newest (freed, kept for the strap's next activity).
    public var current: Channel? {
        channels.last { !$0.isFree } ?? channels.last
    }

    /// For a start of `activity`: the channel it is on already (its start sent again), else a free
    /// one of `app` with `policy` (not in `excluded`: being deleted), now taken for it; nil when a
    /// new one must be created.
    public mutating func take(for activity: String, app: App, policy: MessageStoragePolicy, excluded: Set<String> = []) -> Channel? {
        if let own = channel(of: activity, app: app) { return own }
        guard let index = channels.lastIndex(where: { $0.app == app && $0.isFree && $0.storagePolicy == policy && !excluded.contains($0.id) })
        else { return nil }
        channels[index].activity = activity
        channels[index].deleteAfter = nil
        return channels[index]
    }

    /// APNs created `id` for `activity`; `replacing`: the channel it had, which APNs no longer has.
    public mutating func created(_ id: String, for activity: String, app: App, policy: MessageStoragePolicy, at now: Int64,
                                 replacing old: String? = nil) {
        if let old { channels.removeAll { $0.id == old } }
        channels.append(Channel(id: id, app: app, storagePolicy: policy, createdAt: now, activity: activity))
    }

    /// `activity`'s end went out (or can never go): its channel is free, to be deleted after `deleteAfter`.
    public mutating func ended(activity: String, app: App, deleteAfter: Int64) {
        guard let index = channels.firstIndex(where: { $0.app == app && $0.activity == activity }) else { return }
        channels[index].activity = nil
        channels[index].deleteAfter = deleteAfter
    }

    /// Every channel of `app` whose activity is not in `owed` (no end of it waits on this path) is
    /// free now and due: `hrbridge recover`, after which no activity of the strap publishes.
    public mutating func retire(app: App, keeping owed: Set<String>, at now: Int64) {
        for index in channels.indices where channels[index].app == app && !owed.contains(channels[index].activity ?? "") {
            channels[index].activity = nil
            channels[index].deleteAfter = min(channels[index].deleteAfter ?? now, now)
        }
    }

    /// Deleted at APNs, or gone there already: forgotten.
    public mutating func deleted(_ id: String) {
        channels.removeAll { $0.id == id }
    }

    /// The free channels of `app` whose deletion is due at `now`.
    public func due(app: App, at now: Int64) -> [Channel] {
        channels.filter { $0.app == app && $0.isFree && ($0.deleteAfter ?? now) <= now }
    }

    /// When the next free channel of `app` not in `excluded` falls due (nil: none waits).
    public func nextDeletion(app: App, excluding excluded: Set<String> = []) -> Int64? {
        channels.filter { $0.app == app && $0.isFree && !excluded.contains($0.id) }.map { $0.deleteAfter ?? .min }.min()
    }

    /// Whether `text` can be a channel id: base64 (standard or URL-safe alphabet) of a sane length. It
    /// goes into a header and a JSON string as it is, so nothing else may pass.
    public static func isChannelID(_ text: String) -> Bool {
        (1...maximumIDLength).contains(text.utf8.count) && text.unicodeScalars.allSatisfy {
            $0.isASCIILetterOrDigit || "+/=-_".unicodeScalars.contains($0)
        }
    }

    /// Apple's ids are 24 base64 characters (16 bytes); 256 takes any longer form with room and
    /// refuses a page of HTML where an id should be.
    static let maximumIDLength = 256
}
