import LiveState
import Platform
import Sensors
import SessionState

/// Where a session's updates go, in the one order that is safe across a crash: each update into the
/// ledger and the state file before any sink sees it, so the next run continues the sequence and
/// never repeats a number a receiver already has; at the end, what reached the sinks struck off.
/// The file is synced to disk on an update's way only at a start and an end; the reservations of
/// sequence numbers that cover the updates between are synced off it (`ActivityLedger.Sync`): a
/// sync per update would hold every update up, longest on an SD card (docs/performance.md, "A
/// gateway's load").
struct ActivityJournal {
    let sinks: SinkSet
    private let stateFile: ActivityStateFile
    private(set) var ledger = ActivityLedger()
    /// The newest update sent (an end included): what a control surface answers with after an end.
    private(set) var lastUpdate: ActivityUpdate?
    /// The activities this session ended, newest last (a few: one per start of the strap's workout),
    /// so a control naming one is told it ended rather than that it is unknown.
    private var ended: [String] = []
    /// Updates sent, by reason and priority (`/metrics`): one count per update, none per sample.
    private(set) var updateCounts: [SessionMetrics.UpdateKind: Int] = [:]
    /// Ends remembered; older ones are then unknown (a session ends one activity per give-up).
    private static let endedRemembered = 16

    enum Failure: Error {
        /// The state file could not be written: the update did not go out, and an end it cannot
        /// record first is left to the next run's recovery.
        case stateFile(SessionError)
        /// A sink failed after the update was recorded.
        case sink(SessionError)
    }

    init(sinks: SinkSet, stateFile: ActivityStateFile) {
        self.sinks = sinks
        self.stateFile = stateFile
    }

    /// Ends what the last run left (before anything else goes out) and starts the ledger from it.
    mutating func recoverLeftovers(console: any SessionConsole, policy: CadencePolicy, at now: Timestamp) throws(SessionError) {
        ledger = try LeftoverEnds.send(from: stateFile, through: sinks, console: console, policy: policy, at: now)
    }

    mutating func append(_ update: ActivityUpdate) throws(Failure) {
        if LatencyTrace.isOn { LatencyTrace.note("journal", activity: update.activityID, sequence: update.sequence) }
        let encoded = EncodedUpdate(update) // the one encoding: the state file and every sink share its bytes
        let sync = ledger.record(encoded, sinks: sinks.names)
        lastUpdate = update
        updateCounts[SessionMetrics.UpdateKind(reason: update.reason.rawValue, priority: update.priority), default: 0] += 1
        if update.event == .end {
            ended.append(update.activityID)
            if ended.count > Self.endedRemembered { ended.removeFirst() }
        }
        do {
            try stateFile.save(ledger, sync: sync)
        } catch {
            throw .stateFile(.unwritable(error.description))
        }
        if LatencyTrace.isOn {
            LatencyTrace.note("saved", activity: update.activityID, sequence: update.sequence,
                              origin: update.timestamp.microsecondsSinceUnixEpoch, reason: update.reason.rawValue)
        }
        do {
            try sinks.acceptGoingOn(encoded)
        } catch {
            throw .sink(error)
        }
    }

    /// After `sinks.finish()`: the ends are out through the sinks that did not fail (delivered or
    /// spooled), so the state file keeps only what is owed elsewhere. `recordable`: false when the
    /// session failed with an activity still open, whose end is then left to recovery whole.
    mutating func close(recordable: Bool, console: any SessionConsole) {
        if recordable || ledger.activeCount == 0 {
            ledger.settle(reachedBy: sinks.workingNames, owing: sinks.owed)
            do {
                try stateFile.save(ledger)
            } catch {
                console.warn(error.description)
            }
        }
        stateFile.release()
    }

    /// Recovery failed: nothing was sent, the file is let go for the next run.
    func abandon() {
        sinks.finish()
        stateFile.release()
    }

    func hasEnded(_ activity: String) -> Bool { ended.contains(activity) }

    /// The activity the status shows: the newest not ended.
    var currentUpdate: ActivityUpdate? { ledger.entries.last { $0.lastUpdate.event != .end }?.lastUpdate }
}
