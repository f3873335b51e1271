import Config
import Forwarding
import FoundationEssentials
import LiveState
import Platform
import Session
import SessionState
import SinkVocabulary

/// `hrbridge recover`: lists, or ends on request, the activities earlier runs left unended at some
/// sink (a crash, a sink that failed, a sink the next run was not configured with).
enum RecoverCommand {
    static let spec = CommandSpec(
        name: "recover",
        summary: "List or end the activities earlier runs left open at some sink.",
        options: [
            .init(name: "--list", valueName: nil, help: "print the leftovers (one JSON object each) and change nothing"),
            .init(name: "--config", valueName: "PATH", help: "end each strap's leftovers through the sinks this file gives that strap"),
        ] + SessionOptions.specOptions + SinkOptions.specOptions.filter { $0.name != "--sink-status" },
        details: """
        A run writes each activity to its state file (docs/service.md) and, when
        it ends, strikes the sinks that have its end. What stays is an end some sink still owes:
        the run crashed, the sink failed, or the next run did not have that sink. The next run
        with that sink sends it; 'recover' sends it now.

        --list prints one JSON object per leftover on stdout, e.g.
          {"activity":"hrbridge-20240101T060000Z-1","lastEvent":"update","lastSequence":17,
           "owedTo":["https://activities.example.org/v1"],"stateFile":"/var/lib/hrbridge/activities/strap-C8_5F_33_12_34_56.json"}
        lastEvent is start or update for an activity never ended (its end will be end:recovered
        with the next sequence), end for an end sent but not confirmed everywhere (sent again
        with the same sequence: a receiver sees a repeat).

        Without --list, each leftover is ended through the sinks given as for 'replay' (--sink
        and its options) or, with --config (the default places when no --sink is given, as for
        'run'), through the sinks the file gives the strap whose state file it is. A file sink
        needs nothing but its path: it always gets its end. The state files are found under
        --state-dir, else the state directory, as run and replay choose it. A state file that a
        running hrbridge holds is skipped: its activity is that run's, not a leftover.
        An APNs sink with --apns-broadcast also deletes the strap's broadcast channels
        (channels/<key>.json), after the ends on them, even when no activity is left: a
        stopped run leaves its channel for the end's dismissal window.

        Exit 0 when nothing is left; 73 when a sink failed on an end; 75 when an end is still
        owed to a sink not given, was only spooled (the server did not take it within
        --sink-grace), or its state file is in use. The message names each.

        Examples:
          hrbridge recover --list
          hrbridge recover --sink https://activities.example.org/v1 --token-file ~/.config/hrbridge/token
          hrbridge recover --config /etc/hrbridge/config.json --state-dir /var/lib/hrbridge
        """
    )

    static func run(_ arguments: ParsedArguments, console: Console) throws(CLIError) {
        let directory = SessionOptions.stateDirectory(arguments)
        let keys = LeftoverRecovery.keys(in: directory)
        if arguments.has("--list") {
            // --spool names a place, as --state-dir does: a script may pass the same places to both forms.
            let given = ["--config"] + SinkOptions.specOptions.map(\.name).filter { $0 != "--spool" }
            if let flag = given.first(where: { arguments.has($0) || !arguments.allValues($0).isEmpty }) {
                throw .usage("--list changes nothing: \(flag) is for ending leftovers", spec)
            }
            try list(keys, directory: directory, console: console)
            return
        }
        let sinksFor = try sinkSource(arguments, console: console)
        var owed: [String] = []
        var failed: [String] = []
        for key in keys {
            var made: SinkSet?
            var unmade: CLIError?
            let outcome = LeftoverRecovery.end(directory: directory, key: key, console: console) { () throws(SessionError) in
                do throws(CLIError) {
                    let (sinks, policy) = try sinksFor(key)
                    made = sinks
                    return (sinks, policy)
                } catch {
                    unmade = error
                    throw .misconfigured(error.message)
                }
            }
            if let unmade { throw unmade }
            switch outcome {
            case let .owed(leftovers):
                owed += leftovers.map { "\($0.activity) (\($0.lastEvent == "end" ? "end" : "last update") #\($0.lastSequence)) "
                    + "still owed to \($0.owedTo.joined(separator: ", ")) in \($0.stateFile)" }
                if let made, made.spooledCount > 0 {
                    owed.append("\(made.spooledCount) lifecycle steps from \(key) were spooled, not delivered: run recover again "
                        + "with the same sinks when the server is back")
                }
            case let .inUse(message): owed.append(message)
            case let .failed(message): failed.append(message)
            }
        }
        console.output.flush()
        for line in failed + owed { console.warn(line) }
        if !failed.isEmpty { throw .cannotCreate("\(failed.count) state file\(failed.count == 1 ? "" : "s") could not be recovered (above)") }
        if !owed.isEmpty { throw .temporaryFailure("\(owed.count) end\(owed.count == 1 ? " is" : "s are") still owed (above)") }
        console.warn(keys.isEmpty ? "nothing left in \(directory)/activities" : "every leftover ended")
    }

    /// One JSON object per leftover on stdout; files in use or unreadable are said on stderr.
    private static func list(_ keys: [String], directory: String, console: Console) throws(CLIError) {
        var count = 0
        for key in keys {
            switch LeftoverRecovery.list(directory: directory, key: key) {
            case let .owed(leftovers):
                for leftover in leftovers {
                    console.output.append { $0.append(contentsOf: line(leftover)) }
                    count += 1
                }
            case let .inUse(message): console.warn("\(message) (its activity is that run's, not a leftover)")
            case let .failed(message): console.warn(message)
            }
        }
        console.warn("\(count) leftover\(count == 1 ? "" : "s") in \(directory)/activities")
    }

    /// `{"activity":…,"lastEvent":…,"lastSequence":…,"owedTo":[…],"stateFile":…}` and a newline:
    /// keys sorted, slashes (the state file's path) as they are.
    private static func line(_ leftover: LeftoverRecovery.Leftover) -> [UInt8] {
        var json = JSONBytes(capacity: 256)
        json.beginObject()
        json.key("activity")
        json.string(leftover.activity, escapingSlash: false)
        json.key("lastEvent")
        json.string(leftover.lastEvent, escapingSlash: false)
        json.key("lastSequence")
        json.integer(leftover.lastSequence)
        json.key("owedTo")
        json.array(leftover.owedTo) { $0.string($1, escapingSlash: false) }
        json.key("stateFile")
        json.string(leftover.stateFile, escapingSlash: false)
        json.endObject()
        json.raw(UInt8(ascii: "\n"))
        return json.bytes
    }

    /// For each state file key, the sinks (and cadence, for the end's stale and dismissal dates)
    /// to end its leftovers with: the --sink flags' for every file; with a configuration, the
    /// sinks of the strap whose file it is; otherwise none (file sinks still get their ends).
    private static func sinkSource(_ arguments: ParsedArguments,
                                   console: Console) throws(CLIError) -> (String) throws(CLIError) -> (SinkSet, CadencePolicy) {
        let flagged = !arguments.allValues("--sink").isEmpty
        if flagged, arguments.value("--config") != nil { throw .usage("--sink and --config exclude each other", spec) }
        let grace = try SinkOptions.seconds(arguments, "--sink-grace", default: SinkSet.defaultGrace, spec: spec) ?? SinkSet.defaultGrace
        let directory = SessionOptions.stateDirectory(arguments)
        // Each state file's push tokens: an end that waited for its token goes to it. Read and written
        // under the state file's lock: `LeftoverRecovery.end` takes it before it asks for the sinks.
        let pushTokens = { (key: String) throws(CLIError) -> PushTokenBook in
            try CLIError.catching(PushTokenFile.book(directory: directory, key: key, warn: console.warn))
        }
        // Each state file's broadcast channels: the ends go out on them, then they are deleted (no
        // activity of the strap follows a recover to reuse them).
        let channels = { (key: String) throws(CLIError) -> ChannelBook in
            try CLIError.catching(ChannelFile.book(directory: directory, key: key, retiring: true, warn: console.warn))
        }
        if flagged {
            return { key throws(CLIError) in
                (try SinkOptions.sinkSet(arguments, spec: spec, console: console, flushEachLine: true, source: nil,
                                         pushTokens: try pushTokens(key), channels: try channels(key)), CadencePolicy())
            }
        }
        let environment = ProcessInfo.processInfo.environment
        let path: String? = if let explicit = arguments.value("--config") { explicit } else {
            try? ConfigurationFile.locate(explicit: nil, environment: environment)
        }
        let none = { () -> SinkSet in SinkSet(sinks: [], relay: SinkLogRelay(), console: console, grace: grace) }
        guard let path else { return { _ in (none(), CadencePolicy()) } }
        let configuration: BridgeConfiguration
        do {
            configuration = try ConfigurationFile.load(path: path, kinds: SinkKinds.catalog)
        } catch {
            throw error.asCLIError
        }
        let context = StrapSessions.Context(stateDirectory: directory,
                                            spoolDirectory: SinkOptions.spoolDirectory(arguments),
                                            environment: environment, console: console, onStop: { _ in }, grace: grace)
        return { key throws(CLIError) in
            guard let strap = configuration.straps.first(where: { StrapSessions.stateKey(of: $0) == key }) else {
                return (none(), CadencePolicy())
            }
            let (book, channels) = (try pushTokens(key), try channels(key))
            return (try CLIError.catching(StrapSessions.sinkSet(for: strap, of: configuration, pushTokens: book,
                                                                channels: channels, context: context)),
                    strap.cadence)
        }
    }
}
