import Forwarding
import FoundationEssentials
import Session

extension SinkSet {
    /// The sinks the `--sink` flags ask for, in order, each built through its kind's description.
    /// `source`: the strap (or the trace's strap) whose updates they get.
    static func make(_ arguments: ParsedArguments, spec: CommandSpec, console: Console, flushEachLine: Bool,
                     source: String?) throws(CLIError) -> SinkSet {
        let requested = try SinkOptions.requested(arguments, spec: spec)
        let grace = try SinkOptions.seconds(arguments, "--sink-grace", default: SinkSet.defaultGrace, spec: spec) ?? SinkSet.defaultGrace
        let status = try SinkOptions.seconds(arguments, "--sink-status", default: nil, spec: spec)
        let relay = SinkLogRelay()
        let control = SinkControlRelay()
        let setup = SinkSetup(http: HTTPClientConfiguration(certificateAuthorityFile: arguments.value("--ca-file")),
                              spoolDirectory: SinkOptions.spoolDirectory(arguments),
                              standardOutput: ConsoleLineOutput(console: console, flushEachLine: flushEachLine),
                              environment: ProcessInfo.processInfo.environment, log: relay.log,
                              source: source, control: control)
        var sinks: [any UpdateSink] = []
        for sink in requested {
            guard let kind = SinkKinds.named(sink.kind) else { continue }
            do {
                sinks.append(try kind.make(sink.values, setup))
            } catch {
                throw CLIError(SessionError(error))
            }
        }
        return SinkSet(sinks: sinks, relay: relay, control: control, console: console, grace: grace, statusInterval: status)
    }
}
