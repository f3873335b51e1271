import BusControl
import Config
import FoundationEssentials
import ListenerAPI
import LiveLinks
import LiveState
import Session
import SessionState
import Trace

/// The whole runtime of `run`, `replay` and the service, made in one place from a
/// `RuntimeConfiguration`: one live session per strap (or the trace's one), each with its engine,
/// state file and sinks; the links that feed them (BlueZ, or the paced trace) and the recorders;
/// the controls over them (`io.hrbridge.Bridge1` on D-Bus, the HTTP listener). `replay --fast`
/// is the trace through its sinks on a virtual clock, with none of that around it.
public final class BridgeRuntime {
    private enum Drive {
        /// Each strap's link delivers into its session (`LinkedSessions`).
        case linked([LinkedSessions.Strap], SensorLinks)
        /// The paced trace is pulled by its session.
        case paced(LiveSession)
        /// `replay --fast`: the trace through the sinks, no session around it.
        case fast(TraceDrive, SinkSet)
    }

    private let drive: Drive
    private let console: any SessionConsole
    /// The sessions as the surfaces see them; the terminal's status lines follow them too.
    public let controls: SessionControls
    private let control: ControlService?
    private let listener: BridgeListener?

    /// Makes every part, in the order a failure should stop at: the sessions (their state files
    /// locked, their sinks set up), then the controls. `afterSinks` hears of each session's sinks once
    /// they are set up (a replay warns network sinks about a trace's recorded times).
    public static func assemble(_ configuration: RuntimeConfiguration, afterSinks: (SinkSet) -> Void = { _ in })
        throws(SessionError) -> BridgeRuntime {
        let console = configuration.sinks.console
        let drive: Drive
        let targets: [SessionControls.Target]
        switch configuration.source {
        case let .straps(record):
            let links = SensorLinks(console: console)
            let context = StrapSessions.Context(stateDirectory: configuration.stateDirectory, sinks: configuration.sinks,
                                                onStop: { sensors in for sensor in sensors { links.stop(sensor) } })
            let straps = try StrapSessions.make(configuration.bridge, context: context)
            let recorders: [TraceRecorder?] = if let record {
                TraceRecorder.recorders(record, for: straps.map { ($0.strap.strap, $0.strap.distanceSensor, $0.strap.distance.heartRateFrom) })
            } else {
                straps.map { _ in nil }
            }
            drive = .linked(zip(straps, recorders).map {
                LinkedSessions.Strap(selector: $0.strap.strap, distance: $0.strap.distanceSensor, session: $0.session, recorder: $1)
            }, links)
            targets = straps.map {
                SessionControls.Target(name: $0.strap.strap.controlName, session: $0.session, distanceSensor: $0.strap.distanceSensor?.controlName)
            }
        case let .trace(reader, stateKey, speed):
            let strap = configuration.bridge.straps[0]
            let feed: WorkoutFeed
            do {
                feed = WorkoutFeed(engine: try LiveStateEngine(policy: strap.cadence, settings: strap.activity), distance: strap.distance)
            } catch {
                throw .invalid("\(reader.path): \(error)")
            }
            // The strap the trace recorded, as the sinks name it (an MQTT topic level): its name, else its address.
            let sinkSource = reader.header.name ?? reader.header.address ?? "replay"
            guard let speed else {
                let sinks = try SinkSet.make(strap.sinks, shared: configuration.bridge.shared, http: configuration.bridge.http,
                                             source: sinkSource, context: configuration.sinks)
                afterSinks(sinks)
                return BridgeRuntime(drive: .fast(TraceDrive(reader: reader, pacer: ReplayPacer(pace: .fastest), feed: feed), sinks),
                                     console: console, controls: SessionControls([]), control: nil, listener: nil)
            }
            let context = StrapSessions.Context(stateDirectory: configuration.stateDirectory, sinks: configuration.sinks, onStop: { _ in })
            let session = try StrapSessions.session(feed, sinks: strap.sinks, of: configuration.bridge, key: stateKey, sinkSource: sinkSource,
                                                    clock: .trace(speed: speed), source: .trace(TraceSchedule(reader: reader)),
                                                    afterSinks: afterSinks, context: context)
            drive = .paced(session)
            targets = [.init(name: "replay", session: session)]
        }
        let controls = SessionControls(targets)
        let control = try ControlService.start(configuration.controlBus, controls: controls, console: console)
        let listener: BridgeListener?
        do throws(SessionError) {
            listener = try BridgeListener.start(configuration.listen, controls: controls, context: .init(
                stateDirectory: configuration.stateDirectory, version: configuration.version,
                environment: configuration.environment, console: console
            ))
        } catch {
            control?.close()
            throw error
        }
        return BridgeRuntime(drive: drive, console: console, controls: controls, control: control, listener: listener)
    }

    private init(drive: Drive, console: any SessionConsole, controls: SessionControls, control: ControlService?, listener: BridgeListener?) {
        self.drive = drive
        self.console = console
        self.controls = controls
        self.control = control
        self.listener = listener
    }

    /// Runs until the sessions end (a trace's end, a signal), then closes the controls. Throws how
    /// they ended when that is a failure or a stop (the command's exit status).
    public func run() throws(SessionError) {
        defer {
            listener?.close()
            control?.close()
        }
        switch drive {
        case let .linked(straps, links):
            try LinkedSessions.run(straps, links: links, console: console)
        case let .paced(session):
            try SessionRunner.run([session])
        case .fast(var trace, let sinks):
            defer { sinks.finish() }
            try trace.run(TraceDrive.Observer(
                update: { update throws(SessionError) in try sinks.acceptGoingOn(update) },
                warning: { [console] in console.warn($0) }
            ))
            if let failure = sinks.firstFailure { throw failure }
        }
    }
}
