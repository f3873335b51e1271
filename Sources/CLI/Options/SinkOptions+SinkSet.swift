import Config
import Forwarding
import FoundationEssentials
import Session
import SinkVocabulary

extension SinkOptions {
    /// The sinks the `--sink` flags ask for, built as the configuration file's are (`SinkSet.make`).
    /// `source`: the strap (or the trace's strap) whose updates they get; `pushTokens`: its tokens
    /// registered at run time (nil for `replay --fast`, which no registration can reach); `channels`:
    /// its broadcast channels (in memory only for `replay --fast`, which keeps no state).
    static func sinkSet(_ arguments: ParsedArguments, spec: CommandSpec, console: Console, flushEachLine: Bool,
                        source: String?, pushTokens: PushTokenBook? = nil, channels: ChannelBook = ChannelBook()) throws(CLIError) -> SinkSet {
        let requested = try requested(arguments, spec: spec)
        let context = try sinkContext(arguments, spec: spec, console: console, flushEachLine: flushEachLine)
        return try CLIError.catching(SinkSet.make(requested, http: http(arguments), source: source, pushTokens: pushTokens,
                                                  channels: channels, context: context))
    }

    /// `--ca-file`: the HTTP settings a configuration file's `http` object gives.
    static func http(_ arguments: ParsedArguments) -> HTTPSettings {
        HTTPSettings(certificateAuthorityFile: arguments.value(SettingFlag.caFile))
    }

    /// `--spool`, `--sink-grace` and `--sink-status`, which apply with flags and with a configuration.
    static func sinkContext(_ arguments: ParsedArguments, spec: CommandSpec, console: Console,
                            flushEachLine: Bool = true) throws(CLIError) -> SinkSet.Context {
        SinkSet.Context(spoolDirectory: spoolDirectory(arguments), environment: ProcessInfo.processInfo.environment,
                        console: console, flushEachLine: flushEachLine,
                        grace: try seconds(arguments, "--sink-grace", default: SinkSet.defaultGrace, spec: spec) ?? SinkSet.defaultGrace,
                        statusInterval: try seconds(arguments, "--sink-status", default: nil, spec: spec))
    }
}
