import Config
import Forwarding
import SinkVocabulary
import SessionState

extension SinkSet {
    /// What every sink of a command shares beside its own settings: where to spool, the environment
    /// secrets may come from, the console stdout sinks write to, and how long to deliver at exit.
    public struct Context {
        var spoolDirectory: String
        var environment: [String: String]
        package var console: any SessionConsole
        /// A paced or live run flushes each line; an unpaced replay lets stdout buffer.
        var flushEachLine: Bool
        var grace: Double
        var statusInterval: Double?

        public init(spoolDirectory: String, environment: [String: String], console: any SessionConsole,
                    flushEachLine: Bool = true, grace: Double = SinkSet.defaultGrace, statusInterval: Double? = nil) {
            self.spoolDirectory = spoolDirectory
            self.environment = environment
            self.console = console
            self.flushEachLine = flushEachLine
            self.grace = grace
            self.statusInterval = statusInterval
        }
    }

    /// The one way sinks are built, for the configuration file and the `--sink` flags alike: each
    /// through its kind's description, with the kind's shared settings (the team's `apns`) under its
    /// own. `source`: the strap (or the trace's strap) whose updates they get; `pushTokens`: its
    /// tokens registered at run time, where a session takes registrations (nil: `replay --fast`);
    /// `channels`: its broadcast channels (in memory only by default). A kind that makes a group
    /// (`SinkGroup`: APNs with a broadcast channel) gives a sink for each of its paths.
    public static func make(_ sinks: [SinkSettings], shared: [String: SinkValues] = [:], http: HTTPSettings,
                            source: String?, pushTokens: PushTokenBook? = nil, channels: ChannelBook = ChannelBook(),
                            context: Context) throws(SessionError) -> SinkSet {
        let relay = SinkLogRelay()
        let control = SinkControlRelay()
        var client = HTTPClientConfiguration(certificateAuthorityFile: http.certificateAuthorityFile)
        if let seconds = http.connectTimeout { client.connectTimeout = seconds }
        if let seconds = http.requestTimeout { client.requestTimeout = seconds }
        let setup = SinkSetup(http: client, spoolDirectory: context.spoolDirectory,
                              standardOutput: context.console.standardOutput(flushEachLine: context.flushEachLine),
                              environment: context.environment, log: relay.log, source: source, control: control,
                              pushTokens: pushTokens, channels: channels)
        var built: [any UpdateSink] = []
        var kinds: [String] = []
        for sink in sinks {
            guard let kind = SinkKinds.named(sink.kind) else { throw .invalid("no sink kind \(sink.kind)") }
            do {
                let shared = kind.sharedObject.flatMap { shared[$0] } ?? SinkValues()
                let made = try kind.make(sink.values.merging(shared), setup)
                let parts = (made as? SinkGroup)?.parts ?? [made]
                built += parts
                kinds += parts.map { _ in kind.name }
            } catch {
                throw SessionError(error)
            }
        }
        return SinkSet(sinks: built, kinds: kinds, relay: relay, control: control, pushTokens: pushTokens, channels: channels,
                       console: context.console, grace: context.grace, statusInterval: context.statusInterval)
    }
}

extension SessionError {
    /// A sink that could not be built, as a session failure (the CLI maps both to exit statuses).
    public init(_ error: SinkSetupError) {
        switch error {
        case let .unreadable(text): self = .unreadable(text)
        case let .invalid(text): self = .invalid(text)
        case let .unavailable(text): self = .unavailable(text)
        case let .cannotCreate(text): self = .unwritable(text)
        }
    }
}
