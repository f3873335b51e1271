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
        /// The highest sequence the activity may use before the state file is synced again. Only a
        /// start, an end and every `reservedAhead`-th update are synced to disk (an fsync is ~1 ms on
        /// a good disk and tens on an SD card, in the way of every update); the others are written
        /// without a sync, which a crashed process does not lose but a power cut may. After one,
        /// the synced file's reservation is the number no update can have passed.
        var reservedThrough: Int

        init(lastUpdate: ActivityUpdate, sinks: [String], reservedThrough: Int? = nil) {
            self.lastUpdate = lastUpdate
            self.sinks = sinks
            self.reservedThrough = reservedThrough ?? lastUpdate.sequence
        }
    }

    /// Updates an activity may send between two synced saves.
    static let reservedAhead = 16

    private(set) var entries: [Entry] = []
    /// False when the ledger comes from the last synced state after the machine restarted (a power
    /// cut may have lost newer unsynced saves): each activity may then have sent up to its reservation.
    var lastSequencesKnown = true

    init(entries: [Entry] = [], lastSequencesKnown: Bool = true) {
        self.entries = entries
        self.lastSequencesKnown = lastSequencesKnown
    }

    var isEmpty: Bool { entries.isEmpty }

    /// Activities not ended yet (an entry whose last update is an end waits only for its delivery).
    var activeCount: Int { entries.filter { $0.lastUpdate.event != .end }.count }

    /// Records an update sent to `sinks`. A start opens an entry; other updates replace the newest
    /// entry of their activity (a replayed trace may start an activity id a recovered one had).
    /// Every update is recorded (not only starts and ends): recovery must continue the sequence.
    /// True when this save must be synced to disk before the update goes out: a start or an end
    /// (a power cut must not lose an activity, or make an end look unsent), or an update past its
    /// activity's reservation, which then reaches `reservedAhead` further.
    @discardableResult
    mutating func record(_ update: ActivityUpdate, sinks: [String]) -> Bool {
        let reservation = update.sequence + Self.reservedAhead
        guard update.event != .start,
              let index = entries.lastIndex(where: { $0.lastUpdate.activityID == update.activityID }) else {
            // A start, or an update whose start was recorded elsewhere (kept anyway).
            entries.append(Entry(lastUpdate: update, sinks: sinks, reservedThrough: reservation))
            return true
        }
        entries[index].lastUpdate = update
        guard update.event == .update, update.sequence <= entries[index].reservedThrough else {
            entries[index].reservedThrough = max(entries[index].reservedThrough, reservation)
            return true
        }
        return false
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
    /// `end:recovered` with the next sequence (past the reservation when the last ones are not
    /// known: numbers are skipped, never repeated); one whose end was sent but perhaps not delivered
    /// gets that same end again (same sequence, so receivers see a harmless repeat).
    func recoveryEnds(at time: Timestamp, policy: CadencePolicy) -> [Entry] {
        entries.map { entry in
            guard entry.lastUpdate.event != .end else { return Entry(lastUpdate: entry.lastUpdate, sinks: entry.sinks) }
            let after = lastSequencesKnown ? entry.lastUpdate.sequence : max(entry.lastUpdate.sequence, entry.reservedThrough)
            return Entry(lastUpdate: entry.lastUpdate.recoveredEnd(at: time, policy: policy, after: after), sinks: entry.sinks)
        }
    }
}
