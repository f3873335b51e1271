import LiveState
import Sensors

/// What a new or returning connection to the preview's event stream gets before the live messages:
/// with a `Last-Event-ID` still in the recent window, exactly the update messages after it (nothing
/// lost, nothing twice); otherwise (a first connection, or one away longer than the window) each
/// shown activity's latest update, which is all a Lock Screen keeps. Each activity's latest sinks
/// report follows either way. Pure: the caller passes the time and guards it with a lock.
///
/// Memory is bounded: `recentLimit` update messages (~500 bytes each: ~130 KB) and the latest update
/// and report of at most `shownLimit` activities.
public struct EventReplay: Sendable {
    /// Updates kept for resuming: at one update every 3 s (the engine's floor), 256 cover a strap's
    /// last ~13 minutes, far more than a browser's reconnect (3 s) takes.
    public static let recentLimit = 256
    /// Activities kept for new connections: one running per strap, and those ended but not yet
    /// dismissed; a gateway with more straps than this has more than a page can show.
    public static let shownLimit = 64

    private struct Recent: Sendable {
        var id: EventID
        var message: [UInt8]
    }

    private struct Shown: Sendable {
        var id: EventID
        var message: [UInt8]
        /// Its end's dismissal date: after it the phone has removed the activity, and so does the page.
        var dismissal: Timestamp?
        var sinks: [UInt8]?
    }

    /// A ring: `recent[(oldest + k) % recentLimit]` is the k-th oldest once full.
    private var recent: [Recent] = []
    private var oldest = 0
    /// In the order of their latest update, oldest first.
    private var shown: [Shown] = []

    public init() {}

    /// An update's message, as every connection gets it (`PreviewMessages.update`).
    public mutating func record(_ update: ActivityUpdate, message: [UInt8]) {
        let id = EventID(update)
        if recent.count < Self.recentLimit {
            recent.append(Recent(id: id, message: message))
        } else {
            recent[oldest] = Recent(id: id, message: message)
            oldest = (oldest + 1) % Self.recentLimit
        }
        let previous = shown.firstIndex { $0.id.activity == id.activity }.map { shown.remove(at: $0) }
        shown.removeAll { $0.dismissal.map { $0 <= update.timestamp } ?? false }
        shown.append(Shown(id: id, message: message, dismissal: update.dismissalDate, sinks: previous?.sinks))
        if shown.count > Self.shownLimit { shown.removeFirst(shown.count - Self.shownLimit) }
    }

    /// The latest sinks report of `activity` (`PreviewMessages.sinks`); ignored for one not shown.
    public mutating func record(sinks message: [UInt8], of activity: String) {
        guard let index = shown.firstIndex(where: { $0.id.activity == activity }) else { return }
        shown[index].sinks = message
    }

    /// The messages a connection gets first, in order, at session time `now`.
    public func catchUp(after lastEventID: String?, at now: Timestamp) -> [UInt8] {
        var bytes: [UInt8] = []
        let last = lastEventID.flatMap(EventID.init(parsing:))
        let visible = shown.filter { $0.dismissal.map { $0 > now } ?? true }
        if let last, let position = inOrder.firstIndex(where: { $0.id == last }) {
            for entry in inOrder[(position + 1)...] { bytes += entry.message }
        } else {
            // A client that was away too long already has the one it names: not that again.
            for entry in visible where entry.id != last { bytes += entry.message }
        }
        for entry in visible { bytes += entry.sinks ?? [] }
        return bytes
    }

    /// The ids of the recent window, oldest first (for tests and the resume check).
    public var recentIDs: [EventID] { inOrder.map(\.id) }

    private var inOrder: ArraySlice<Recent> {
        recent.count < Self.recentLimit ? recent[...] : (recent[oldest...] + recent[..<oldest])[...]
    }
}
