import FoundationEssentials
import LiveState
import Sensors
import SessionState

/// `hrbridge recover`: the leftovers of every state file in a state directory, listed or ended
/// through sinks the caller gives. Each file is locked while it is read, as a run locks it: a file
/// a running hrbridge holds lists that run's own activity, not a leftover, and is skipped.
public enum LeftoverRecovery {
    /// One activity whose end some sink may still lack.
    public struct Leftover: Sendable, Equatable {
        public var stateFile: String
        public var activity: String
        /// The newest update sent for it: `start` or `update` (never ended), or `end` (sent, not confirmed everywhere).
        public var lastEvent: String
        public var lastSequence: Int
        /// The sinks that still owe it an end, as the state file names them.
        public var owedTo: [String]
    }

    /// What became of one state file.
    public enum Outcome: Sendable {
        /// Read (and ended where asked); what is still owed (empty: nothing).
        case owed([Leftover])
        /// A running hrbridge holds it; the message says which.
        case inUse(String)
        /// It could not be read or written, or a sink failed on an end (which stays owed).
        case failed(String)
    }

    /// The keys of the state files in `directory` (`<directory>/activities/<key>.json`) and of the
    /// broadcast channel files (`<directory>/channels/<key>.json`), sorted: a strap whose activities
    /// all ended keeps no state file, yet its channels wait for their deletion. Files set aside as
    /// corrupt and temporary files are neither.
    public static func keys(in directory: String) -> [String] {
        let names = ["activities", "channels"].flatMap { folder in
            (try? FileManager.default.contentsOfDirectory(atPath: directory + "/" + folder)) ?? []
        }
        return Set(names.filter { $0.hasSuffix(".json") }.map { String($0.dropLast(".json".count)) }).sorted()
    }

    /// What the state file `key` lists, without changing it (a damaged file is reported, left in place).
    public static func list(directory: String, key: String) -> Outcome {
        withStateFile(directory: directory, key: key) { stateFile throws(SessionError) in
            do throws(LedgerFormatError) {
                return leftovers(try stateFile.read(), in: stateFile)
            } catch {
                throw .invalid("\(stateFile.path): unreadable activity state (\(error.message))")
            }
        }
    }

    /// Ends each leftover of the state file `key` as a run's start-up would (the same end, the same
    /// sequence rules) through the sinks `makeSinks` gives (and any file it is owed to), waits for
    /// them to deliver or spool, and keeps in the file only what is still owed. The sinks are made
    /// once the file is locked: a sink with broadcast channels deletes the strap's channels as it
    /// starts, and while a running hrbridge holds the file those channels are that run's.
    public static func end(directory: String, key: String, console: any SessionConsole,
                           sinks makeSinks: () throws(SessionError) -> (SinkSet, CadencePolicy)) -> Outcome {
        withStateFile(directory: directory, key: key) { stateFile throws(SessionError) in
            guard let now = SessionClock.real.now() else { throw .unavailable("the system clock is before 1970") }
            let (sinks, policy) = try makeSinks()
            var ledger: ActivityLedger
            do throws(SessionError) {
                ledger = try LeftoverEnds.send(from: stateFile, through: sinks, console: console, policy: policy, at: now)
            } catch {
                sinks.finish()
                throw error
            }
            sinks.finish()
            ledger.settle(reachedBy: sinks.workingNames, owing: sinks.owed)
            do throws(ActivityStateFile.Failure) {
                try stateFile.save(ledger)
            } catch {
                throw .unwritable(error.description)
            }
            return leftovers(ledger, in: stateFile)
        }
    }

    private static func leftovers(_ ledger: ActivityLedger, in stateFile: ActivityStateFile) -> [Leftover] {
        ledger.entries.map { entry in
            Leftover(stateFile: stateFile.path, activity: entry.lastUpdate.activityID, lastEvent: entry.lastUpdate.event.rawValue,
                     lastSequence: entry.lastUpdate.sequence, owedTo: entry.sinks)
        }
    }

    private static func withStateFile(directory: String, key: String,
                                      _ body: (ActivityStateFile) throws(SessionError) -> [Leftover]) -> Outcome {
        let stateFile: ActivityStateFile
        do {
            stateFile = try ActivityStateFile(directory: directory, key: key)
        } catch {
            if case .busy = error { return .inUse(error.description) }
            return .failed(error.description)
        }
        defer { stateFile.release() }
        do {
            return .owed(try body(stateFile))
        } catch {
            return .failed(error.message)
        }
    }
}
