import Sensors
import LiveState

/// The activities a session has told its sinks about and whose end may not have reached every
/// sink yet: what a later run needs to end them after a crash. Pure: the session records each
/// update it sends, the state file persists the ledger, and `recoveryEnds` says what to send.
struct ActivityLedger: Sendable, Equatable {
    struct Entry: Sendable, Equatable {
        /// The newest update sent for the activity: its id, sequence, attributes and content state.
        var lastUpdate: ActivityUpdate
        /// Names of the sinks it went to that may still lack its end (`stdout`, `file:PATH`, a URL,
        /// `apns`): all of them while it runs; after a run ended it, only those that run did not reach.
        var sinks: [String]
    }

    private(set) var entries: [Entry] = []

    init(entries: [Entry] = []) { self.entries = entries }

    var isEmpty: Bool { entries.isEmpty }

    /// Activities not ended yet (an entry whose last update is an end waits only for its delivery).
    var activeCount: Int { entries.filter { $0.lastUpdate.event != .end }.count }

    /// Records an update sent to `sinks`. A start opens an entry; other updates replace the newest
    /// entry of their activity (a replayed trace may start an activity id a recovered one had).
    /// Every update is recorded (not only starts and ends): recovery must continue the sequence.
    mutating func record(_ update: ActivityUpdate, sinks: [String]) {
        if update.event == .start {
            entries.append(Entry(lastUpdate: update, sinks: sinks))
            return
        }
        guard let index = entries.lastIndex(where: { $0.lastUpdate.activityID == update.activityID }) else {
            entries.append(Entry(lastUpdate: update, sinks: sinks)) // its start was recorded elsewhere: keep it anyway
            return
        }
        entries[index].lastUpdate = update
    }

    /// The ends are out through `reached` (sinks that finished without failing: delivered or spooled
    /// everything but the activities `owing` lists for them, held for a later run): those sinks are
    /// struck from every entry they do not owe, and an entry no sink still owes an end goes. What is
    /// left is each end still owed to a sink this run did not have, that failed, or that holds it.
    mutating func settle(reachedBy reached: [String], owing: [String: Set<String>] = [:]) {
        entries = entries.compactMap { entry in
            var entry = entry
            entry.sinks.removeAll { reached.contains($0) && !(owing[$0]?.contains(entry.lastUpdate.activityID) ?? false) }
            return entry.sinks.isEmpty ? nil : entry
        }
    }

    /// What a new run sends first for what the last one left: an activity still running gets
    /// `end:recovered` with the next sequence; one whose end was sent but perhaps not delivered gets
    /// that same end again (same sequence, so receivers see a harmless repeat).
    func recoveryEnds(at time: Timestamp, policy: CadencePolicy) -> [Entry] {
        entries.map { entry in
            let end = entry.lastUpdate.event == .end ? entry.lastUpdate : entry.lastUpdate.recoveredEnd(at: time, policy: policy)
            return Entry(lastUpdate: end, sinks: entry.sinks)
        }
    }
}
