import Forwarding
import LiveState
import Sensors
import SessionState

/// Ends what an earlier run left in a state file (it crashed, a sink failed, or a sink was not in
/// its successor's configuration): a session does it first thing, `hrbridge recover` on request.
/// Each end goes only to the sinks still owed it, and stays owed to each sink it cannot reach
/// until a run that has that sink sends it.
enum LeftoverEnds {
    /// Loads `stateFile`, turns each leftover into its end (`recoveryEnds`: the next sequence, or the
    /// same end again) and saves that before anything is sent, so a crash from here on sends the very
    /// same ends next time, never a lower sequence. Then sends each end through the sinks of `sinks`
    /// it is owed to, and appends it to each file it is owed to that `sinks` lacks.
    ///
    /// Returns the ledger with those files struck (they have the end, synced); the caller strikes the
    /// sinks of `sinks` once they have finished (`settle(reachedBy:)`), and saves. A sink of `sinks`
    /// that fails makes this throw; what it was owed stays in the state file.
    static func send(from stateFile: ActivityStateFile, through sinks: SinkSet, console: any SessionConsole,
                     policy: CadencePolicy, at now: Timestamp) throws(SessionError) -> ActivityLedger {
        let (leftover, warning) = stateFile.load()
        if let warning { console.warn(warning) }
        guard !leftover.isEmpty else { return leftover }
        var ledger = ActivityLedger(entries: leftover.recoveryEnds(at: now, policy: policy))
        try save(ledger, to: stateFile)
        var entries: [ActivityLedger.Entry] = []
        for var entry in ledger.entries {
            let end = entry.lastUpdate
            // Encoded once, when the ledger took it: the state file, the sinks and the files share it.
            let reachable = entry.sinks.filter(sinks.names.contains)
            let files = entry.sinks.filter { !reachable.contains($0) && filePath(ofSink: $0) != nil }
            let through = reachable + files
            console.warn("\(stateFile.path): \(end.activityID) was left running by an earlier run; ending it "
                + "(sequence \(end.sequence), \(end.reason)) through \(through.isEmpty ? "no sink" : through.joined(separator: ", "))")
            for missing in entry.sinks where !through.contains(missing) {
                console.warn("\(end.activityID) also went to \(missing), which this run does not have: its end stays owed in "
                    + "\(stateFile.path) until a run with that sink, or 'hrbridge recover' with it, sends it")
            }
            try sinks.accept(entry.last, only: reachable)
            for file in files where appendEnd(entry.last, toSink: file, console: console) {
                entry.sinks.removeAll { $0 == file }
            }
            if !entry.sinks.isEmpty { entries.append(entry) }
        }
        if entries != ledger.entries {
            ledger = ActivityLedger(entries: entries)
            try save(ledger, to: stateFile)
        }
        return ledger
    }

    /// The path of a `file:PATH` sink name; nil for any other sink.
    static func filePath(ofSink name: String) -> String? {
        name.hasPrefix(fileSinkPrefix) ? String(name.dropFirst(fileSinkPrefix.count)) : nil
    }

    private static let fileSinkPrefix = "file:"

    /// A file sink this run is not configured with still gets its end: unlike a server or a phone,
    /// a file needs nothing but its path, which the name holds, and nothing reads it but whoever
    /// looks at that file, which should show the activity ended. Leaving the end owed instead
    /// would keep it pending for as long as no run writes that file, and warn on every start.
    /// Appended as the file sink appends (created if missing, synced): true when it is written.
    private static func appendEnd(_ end: EncodedUpdate, toSink name: String, console: any SessionConsole) -> Bool {
        guard let path = filePath(ofSink: name) else { return false }
        do {
            let sink = try LineSink.appending(toFile: path)
            defer { sink.finish(grace: 0) }
            try sink.accept(end)
            return sink.counters.sent == 1 // 0: the end could not be encoded (counted and logged by the sink)
        } catch {
            console.warn("\(error.description); its end stays owed")
            return false
        }
    }

    private static func save(_ ledger: ActivityLedger, to stateFile: ActivityStateFile) throws(SessionError) {
        do {
            try stateFile.save(ledger)
        } catch {
            throw .unwritable(error.description)
        }
    }
}
