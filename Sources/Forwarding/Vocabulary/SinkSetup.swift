import FoundationEssentials
import Platform
import SinkVocabulary

/// What every sink is built with, beside its own values: how HTTP sinks connect, where undelivered
/// starts and ends are spooled, where standard output goes, the process environment (credentials,
/// environment-variable secrets), the log, and which strap the updates come from.
public struct SinkSetup {
    public var http: HTTPClientConfiguration
    public var spoolDirectory: String?
    public var standardOutput: any LineOutput
    public var environment: [String: String]
    public var log: @Sendable (String) -> Void
    /// The strap whose updates these sinks get, as the user named it (its name or address; for a
    /// replay, the trace's strap): a sink that addresses several straps' updates apart (an MQTT topic
    /// per strap) names them by it. Nil when nobody said (`recover` of an unnamed run).
    public var source: String?
    /// Where a sink that takes commands (MQTT's control topic) sends them: the session the sinks
    /// serve connects to it once it exists, as `hrbridge ctl` reaches it over D-Bus.
    public var control: SinkControlRelay
    /// The strap's push tokens registered at run time, kept in the state directory, for the APNs
    /// sink; nil where no session can take registrations (`replay --fast`): configured tokens only.
    public var pushTokens: PushTokenBook?
    /// The strap's broadcast channels, kept in the state directory beside its tokens (in memory only
    /// where no state is kept: `replay --fast`), for the APNs sink that publishes on one and for those
    /// that tell the app its id (MQTT).
    public var channels: ChannelBook

    public init(http: HTTPClientConfiguration, spoolDirectory: String?, standardOutput: any LineOutput,
                environment: [String: String], log: @escaping @Sendable (String) -> Void,
                source: String? = nil, control: SinkControlRelay = SinkControlRelay(), pushTokens: PushTokenBook? = nil,
                channels: ChannelBook = ChannelBook()) {
        self.http = http
        self.spoolDirectory = spoolDirectory
        self.standardOutput = standardOutput
        self.environment = environment
        self.log = log
        self.source = source
        self.control = control
        self.pushTokens = pushTokens
        self.channels = channels
    }

    /// The file a reference names here (`credential:NAME` inside the service's credentials directory).
    public func path(of reference: FileReference) throws(SinkSetupError) -> String {
        do {
            return try reference.resolvedPath(environment: environment)
        } catch {
            throw .unreadable(error.message)
        }
    }

    /// A short secret (a token): one line from its file or variable (`SecretSource.readLine`).
    public func readLine(_ source: SecretSource, what: String) throws(SinkSetupError) -> (line: String, origin: String) {
        try source.readLine(environment: environment, what: what)
    }
}

/// Why a sink could not be built; the command line and the session map each case to an exit status.
public enum SinkSetupError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A file or variable it needs is missing or unreadable.
    case unreadable(String)
    /// What it read is not what it should be (a key that is no P-256 key, a token that is no hex).
    case invalid(String)
    /// A system library it needs is not installed.
    case unavailable(String)
    /// Its output cannot be created (a file sink's directory).
    case cannotCreate(String)

    public var description: String {
        switch self {
        case let .unreadable(text), let .invalid(text), let .unavailable(text), let .cannotCreate(text): text
        }
    }
}
