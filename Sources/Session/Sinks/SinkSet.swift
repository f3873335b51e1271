import Forwarding
import Foundation
import LiveState
import Synchronization

/// Every sink of one command: each update goes to all of them in order; at the end each finishes
/// (network sinks deliver what they can, then spool) and its counters are logged.
final class SinkSet {
    private let sinks: [any UpdateSink]
    let relay: SinkLogRelay
    private let console: Console
    private let grace: Double
    private let statusInterval: Double?
    private var lastStatus = Date()

    /// `relay` must be the one whose `log` the network sinks were given.
    init(sinks: [any UpdateSink], relay: SinkLogRelay, console: Console, grace: Double = SinkOptions.defaultGrace, statusInterval: Double? = nil) {
        self.sinks = sinks
        self.relay = relay
        self.console = console
        self.grace = grace
        self.statusInterval = statusInterval
    }

    static func make(_ arguments: ParsedArguments, spec: CommandSpec, console: Console, flushEachLine: Bool) throws(CLIError) -> SinkSet {
        let specs = try SinkOptions.specs(arguments, spec: spec)
        let grace = try SinkOptions.seconds(arguments, "--sink-grace", default: SinkOptions.defaultGrace, spec: spec) ?? SinkOptions.defaultGrace
        let status = try SinkOptions.seconds(arguments, "--sink-status", default: nil, spec: spec)
        let token = try SinkOptions.tokenSource(arguments, spec: spec)
        let http = HTTPClientConfiguration(certificateAuthorityFile: arguments.value("--ca-file"))
        let spool = SinkOptions.spoolDirectory(arguments)
        let relay = SinkLogRelay()
        var sinks: [any UpdateSink] = []
        for sinkSpec in specs {
            switch sinkSpec {
            case .standardOutput:
                sinks.append(LineSink(name: "stdout", output: ConsoleLineOutput(console: console, flushEachLine: flushEachLine)))
            case let .file(path):
                do {
                    sinks.append(try LineSink.appending(toFile: path))
                } catch {
                    throw .cannotCreate(error.description)
                }
            case let .lifecycleServer(url):
                sinks.append(NetworkSink.lifecycleServer(baseURL: url, token: token, http: http, spoolDirectory: spool, log: relay.log))
            case .apns:
                let (settings, tokens) = try SinkOptions.apnsSettings(arguments, spec: spec)
                sinks.append(NetworkSink.apns(settings: settings, tokens: tokens, http: http, spoolDirectory: spool, log: relay.log))
            }
        }
        return SinkSet(sinks: sinks, relay: relay, console: console, grace: grace, statusInterval: status)
    }

    /// A lifecycle server or APNs among them: somewhere times and activity ids mean something to a receiver.
    var hasNetworkSink: Bool { sinks.contains { $0 is NetworkSink } }

    /// Each sink's name (`stdout`, `file:PATH`, a URL, `apns`), as the state file records them.
    var names: [String] { sinks.map(\.name) }

    /// Each sink's counters as one line, for status.
    var counterSummaries: [(name: String, summary: String)] {
        sinks.map { sink in
            var summary = sink.counters.summary
            if let network = sink as? NetworkSink { summary += ", waiting \(network.waitingCount)" }
            return (sink.name, summary)
        }
    }

    /// `--sink-status S`, if asked for: a live session logs the counters on its own timer.
    var statusPeriod: Double? { statusInterval }

    /// Sends `update` to every sink, or only to those named in `only` (a recovered end goes where
    /// its activity went).
    func accept(_ update: ActivityUpdate, only: [String]? = nil) throws(CLIError) {
        for sink in sinks where only?.contains(sink.name) ?? true {
            do {
                try sink.accept(update)
            } catch {
                throw .cannotCreate(error.description)
            }
        }
        relay.drain(into: console)
        logStatusIfDue()
    }

    /// Log lines the delivery threads left, now (a live session calls this when the relay says so).
    func drainLogs() { relay.drain(into: console) }

    /// The status line, if `--sink-status` asked for one and its interval has passed.
    func logStatusIfDue() {
        guard let statusInterval, Date().timeIntervalSince(lastStatus) >= statusInterval else { return }
        lastStatus = Date()
        logCounters(prefix: "status")
    }

    /// Ends every sink and logs what each did. Safe to call once, on success or failure.
    func finish() {
        for sink in sinks { sink.finish(grace: grace) }
        relay.drain(into: console)
        logCounters(prefix: "done")
    }

    private func logCounters(prefix: String) {
        for (sink, counted) in zip(sinks, counterSummaries) where sinks.count > 1 || !(sink is LineSink) || sink.counters.failed > 0 {
            console.warn("sink \(counted.name) \(prefix): \(counted.summary)")
        }
    }
}

/// Log lines from delivery threads, handed to the console on the command's own thread (the
/// console is not shared across threads).
final class SinkLogRelay: Sendable {
    private let lines = Mutex<[String]>([])
    private let waiting = Mutex<(@Sendable () -> Void)?>(nil)

    var log: @Sendable (String) -> Void {
        { [self] line in
            lines.withLock { $0.append(line) }
            waiting.withLock { $0 }?()
        }
    }

    /// Called after each new line (from a delivery thread): a live session, which may send nothing
    /// for minutes, drains at once instead of waiting for its next update.
    func whenLineArrives(_ notify: @escaping @Sendable () -> Void) {
        waiting.withLock { $0 = notify }
    }

    func drain(into console: Console) {
        for line in lines.withLock({ lines in defer { lines = [] }; return lines }) { console.warn(line) }
    }
}
