import Forwarding
import Session

extension SinkSet {
    /// The sinks the `--sink` flags ask for, in order, each with what it needs from the other flags.
    /// An APNs sink's flags are read only when one is asked for, after the sinks before it were made.
    static func make(_ arguments: ParsedArguments, spec: CommandSpec, console: Console, flushEachLine: Bool) throws(CLIError) -> SinkSet {
        let specs = try SinkOptions.specs(arguments, spec: spec)
        let grace = try SinkOptions.seconds(arguments, "--sink-grace", default: SinkSet.defaultGrace, spec: spec) ?? SinkSet.defaultGrace
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
}
