import Sensors
import LiveState

/// The activities a session has told its sinks about and whose end may not have reached every
/// sink yet: what a later run needs to end them after a crash. Pure: the session records each
/// update it sends, the state file persists the ledger, and `recoveryEnds` says what to send.
package struct ActivityLedger: Sendable, Equatable {
    package struct Entry: Sendable, Equatable {
        /// The newest update sent for the activity, with the line its sinks were sent: the state
        /// file writes those very bytes, so each update is encoded once.
        package var last: EncodedUpdate
        /// Its id, sequence, attributes and content state.
        package var lastUpdate: ActivityUpdate { last.update }
        /// Names of the sinks it went to that may still lack its end (`stdout`, `file:PATH`, a URL,
        /// `apns`): all of them while it runs; after a run ended it, only those that run did not reach.
        package var sinks: [String]
        /// The highest sequence the activity may use: what the synced state file says, or will say
        /// once a sync asked for `soon` is done. Only a start and an end are synced on an update's way
        /// out (an fsync holds an update up, longest on an SD card); every other update is
        /// written without a sync, which a crashed process does not lose but a power cut may. After
        /// one, the synced file's reservation is the number no update can have passed.
        var reservedThrough: Int
        /// The part of the reservation known to be on disk: an update past it waits for the sync.
        var confirmedThrough: Int

        init(last: EncodedUpdate, sinks: [String], reservedThrough: Int? = nil) {
            self.last = last
            self.sinks = sinks
            self.reservedThrough = reservedThrough ?? last.update.sequence
            confirmedThrough = self.reservedThrough
        }
    }

    /// What saving an update asks of the synced state file (`ActivityStateFile.save`).
    package enum Sync: Sendable, Equatable {
        /// Nothing: the update is within its activity's reservation on disk.
        case none
        /// On the update's way, before it goes out: a start, an end, an update past every reservation.
        case now
        /// Off the update's way: half the reservation is used, the next block is asked for.
        case soon
        /// The block asked for `soon` must be on disk before this update goes out: wait for it
        /// (done long since at any update rate: it was asked for half a block ago).
        case awaitSoon
    }

    /// Updates a reservation covers.
    static let reservedAhead = 16

    package private(set) var entries: [Entry] = []
    /// False when the ledger comes from the last synced state after the machine restarted (a power
    /// cut may have lost newer unsynced saves): each activity may then have sent up to its reservation.
    var lastSequencesKnown = true

    package init(entries: [Entry] = [], lastSequencesKnown: Bool = true) {
        self.entries = entries
        self.lastSequencesKnown = lastSequencesKnown
    }

    package var isEmpty: Bool { entries.isEmpty }

    /// Activities not ended yet (an entry whose last update is an end waits only for its delivery).
    package var activeCount: Int { entries.filter { $0.lastUpdate.event != .end }.count }

    /// Records an update sent to `sinks`. A start opens an entry; other updates replace the newest
    /// entry of their activity (a replayed trace may start an activity id a recovered one had).
    /// Every update is recorded (not only starts and ends): recovery must continue the sequence.
    /// Says what the save must do with the synced file: a start or an end now (a power cut must not
    /// lose an activity, or make an end look unsent); halfway through a reservation the next one
    /// soon; past the confirmed part, wait for it.
    @discardableResult
    package mutating func record(_ encoded: EncodedUpdate, sinks: [String]) -> Sync {
        let update = encoded.update
        let reservation = update.sequence + Self.reservedAhead
        guard update.event != .start,
              let index = entries.lastIndex(where: { $0.lastUpdate.activityID == update.activityID }) else {
            // A start, or an update whose start was recorded elsewhere (kept anyway).
            entries.append(Entry(last: encoded, sinks: sinks, reservedThrough: reservation))
            return .now
        }
        entries[index].last = encoded
        let entry = entries[index]
        if update.event == .end || update.sequence > entry.reservedThrough {
            entries[index].reservedThrough = max(entry.reservedThrough, reservation)
            entries[index].confirmedThrough = entries[index].reservedThrough
            return .now
        }
        if update.sequence > entry.confirmedThrough {
            entries[index].confirmedThrough = entry.reservedThrough
            return .awaitSoon
        }
        if entry.reservedThrough == entry.confirmedThrough, update.sequence > entry.reservedThrough - Self.reservedAhead / 2 {
            entries[index].reservedThrough += Self.reservedAhead
            return .soon
        }
        return .none
    }

    /// The ends are out through `reached` (sinks that finished without failing: delivered or spooled
    /// everything but the activities `owing` lists for them, held for a later run): those sinks are
    /// struck from every entry they do not owe, and an entry no sink still owes an end goes. What is
    /// left is each end still owed to a sink this run did not have, that failed, or that holds it.
    package mutating func settle(reachedBy reached: [String], owing: [String: Set<String>] = [:]) {
        entries = entries.compactMap { entry in
            var entry = entry
            let activity = entry.lastUpdate.activityID
            entry.sinks.removeAll { reached.contains($0) && !(owing[$0]?.contains(activity) ?? false) }
            return entry.sinks.isEmpty ? nil : entry
        }
    }

    /// What a new run sends first for what the last one left: an activity still running gets
    /// `end:recovered` with the next sequence (past the reservation when the last ones are not
    /// known: numbers are skipped, never repeated); one whose end was sent but perhaps not delivered
    /// gets that same end again (same sequence, so receivers see a harmless repeat).
    package func recoveryEnds(at time: Timestamp, policy: CadencePolicy) -> [Entry] {
        entries.map { entry in
            guard entry.lastUpdate.event != .end else { return Entry(last: entry.last, sinks: entry.sinks) }
            let after = lastSequencesKnown ? entry.lastUpdate.sequence : max(entry.lastUpdate.sequence, entry.reservedThrough)
            return Entry(last: EncodedUpdate(entry.lastUpdate.recoveredEnd(at: time, policy: policy, after: after)), sinks: entry.sinks)
        }
    }
}
