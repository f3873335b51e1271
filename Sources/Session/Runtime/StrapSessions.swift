import BlueZ
import Config
import Forwarding
import FoundationEssentials
import LiveState
import Sensors
import SinkVocabulary
import SessionState

/// One live session per strap of a configuration (for `run`: the file's, or the one its flags make): each with its own engine,
/// sinks, state file and queue, so one strap's trouble never stalls another. The source (a BlueZ
/// strap link) is attached by the caller (`run`: `SensorLinks` delivering on the session's queue).
public enum StrapSessions {
    public struct Context {
        var stateDirectory: String
        var sinks: SinkSet.Context
        /// Called (any thread) when a signal stops a strap's session: let go of the strap and of the
        /// distance sensor beside it.
        var onStop: @Sendable ([SensorSelector]) -> Void

        public init(stateDirectory: String, spoolDirectory: String, environment: [String: String], console: any SessionConsole,
                    onStop: @escaping @Sendable ([SensorSelector]) -> Void, grace: Double = SinkSet.defaultGrace,
                    statusInterval: Double? = nil) {
            self.stateDirectory = stateDirectory
            self.sinks = SinkSet.Context(spoolDirectory: spoolDirectory, environment: environment, console: console,
                                         grace: grace, statusInterval: statusInterval)
            self.onStop = onStop
        }

        public init(stateDirectory: String, sinks: SinkSet.Context, onStop: @escaping @Sendable ([SensorSelector]) -> Void) {
            self.stateDirectory = stateDirectory
            self.sinks = sinks
            self.onStop = onStop
        }
    }

    public static func make(_ configuration: BridgeConfiguration, context: Context) throws(SessionError) -> [(strap: StrapConfiguration, session: LiveSession)] {
        var made: [(strap: StrapConfiguration, session: LiveSession)] = []
        let prefixes = configuration.straps.map(\.activity.activityIDPrefix)
        for (index, strap) in configuration.straps.enumerated() {
            var settings = strap.activity
            // Activity ids are <prefix>-<start second>-<n>: straps sharing a prefix (the default)
            // that start in the same second must still differ, as `run --device … --device …` does.
            if prefixes.filter({ $0 == settings.activityIDPrefix }).count > 1 { settings.activityIDPrefix += "-\(index + 1)" }
            let engine: LiveStateEngine
            do {
                engine = try LiveStateEngine(policy: strap.cadence, settings: settings)
            } catch {
                throw .invalid("\(strap.strap): \(error)")
            }
            let sensors = [strap.strap] + (strap.distanceSensor.map { [$0] } ?? [])
            let onStop = context.onStop
            let session = try session(
                WorkoutFeed(engine: engine, distance: strap.distance), sinks: strap.sinks, of: configuration,
                key: SessionKey.strap(strap.strap), sinkSource: strap.strap.description, clock: .real,
                source: .live(silence: ReconnectPolicy().silenceTimeout), onStop: { onStop(sensors) }, context: context
            )
            made.append((strap, session))
        }
        return made
    }

    /// One session, a strap's or a paced trace's: its state file first (its lock guards the push
    /// tokens and channels beside it, which the sinks use), then its sinks, then the session. `key`
    /// names the state file; `sinkSource`: the strap as the sinks name it (an MQTT topic level).
    /// `afterSinks` hears of the sinks before the session exists (a replay warns about its times).
    public static func session(_ feed: WorkoutFeed, sinks requested: [SinkSettings], of configuration: BridgeConfiguration,
                               key: String, sinkSource: String, clock: SessionClock, source: SessionSource,
                               onStop: @escaping @Sendable () -> Void = {}, afterSinks: (SinkSet) -> Void = { _ in },
                               context: Context) throws(SessionError) -> LiveSession {
        let stateFile = try ActivityStateFile.opened(directory: context.stateDirectory, key: key)
        let pushTokens = try PushTokenFile.book(directory: context.stateDirectory, key: key, warn: context.sinks.console.warn)
        let channels = try ChannelFile.book(directory: context.stateDirectory, key: key, warn: context.sinks.console.warn)
        let sinks = try SinkSet.make(requested, shared: configuration.shared, http: configuration.http, source: sinkSource,
                                     pushTokens: pushTokens, channels: channels, context: context.sinks)
        afterSinks(sinks)
        return LiveSession(feed: feed, sinks: sinks, console: context.sinks.console, clock: clock, stateFile: stateFile,
                           source: source, onStop: onStop)
    }

    /// The sinks the file gives `strap`, with their secrets read: for its session, and for
    /// `hrbridge recover` ending what that strap's earlier run left. `pushTokens` and `channels`: the
    /// strap's tokens registered at run time and its broadcast channels (its state file's lock held).
    public static func sinkSet(for strap: StrapConfiguration, of configuration: BridgeConfiguration, pushTokens: PushTokenBook?,
                               channels: ChannelBook, context: Context) throws(SessionError) -> SinkSet {
        try SinkSet.make(strap.sinks, shared: configuration.shared, http: configuration.http,
                         source: strap.strap.description, pushTokens: pushTokens, channels: channels, context: context.sinks)
    }

    /// The state file key of a configured strap (`hrbridge recover` matches leftovers to straps by it).
    public static func stateKey(of strap: StrapConfiguration) -> String { SessionKey.strap(strap.strap) }
}
