import Config
import Foundation
import LiveState

/// One live session per strap of the configuration file (for `run`): each with its own engine,
/// sinks, state file and queue, so one strap's trouble never stalls another. The source (a BlueZ
/// strap link) is attached by the caller (`run`: `StrapLinks` delivering on the session's queue).
enum StrapSessions {
    struct Context {
        var stateDirectory: String
        var spoolDirectory: String
        var environment: [String: String]
        var console: Console
        /// Called (any thread) when a signal stops a strap's session: let go of the strap.
        var onStop: @Sendable (Config.StrapSelector) -> Void
        var grace: Double = SinkOptions.defaultGrace
        var statusInterval: Double?
    }

    static func make(_ configuration: BridgeConfiguration, context: Context) throws(CLIError) -> [(strap: StrapConfiguration, session: LiveSession)] {
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
                throw .dataError("\(strap.strap): \(error)")
            }
            let relay = SinkLogRelay()
            let sinks = try ConfiguredSinks.make(strap.sinks, context: ConfiguredSinks.Context(
                apns: configuration.apns, http: configuration.http, environment: context.environment,
                spoolDirectory: context.spoolDirectory, console: context.console, flushEachLine: true, log: relay.log
            ))
            let stateFile = try ActivityStateFile.opened(directory: context.stateDirectory, key: SessionKey.strap(strap.strap))
            let selector = strap.strap
            let onStop = context.onStop
            let session = LiveSession(
                feed: StrapFeed(engine: engine),
                sinks: SinkSet(sinks: sinks, relay: relay, console: context.console, grace: context.grace, statusInterval: context.statusInterval),
                console: context.console, clock: .real, stateFile: stateFile, onStop: { onStop(selector) }
            )
            made.append((strap, session))
        }
        return made
    }
}
