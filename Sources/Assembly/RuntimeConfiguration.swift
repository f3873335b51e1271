import Config
import Session
import Trace
import BusControl

/// What `run`, `replay` and the service make their runtime from: the bridge's configuration (a
/// file's, or the one the flags describe: one shape for both), where the updates come from, and the
/// surfaces around the sessions. The commands fill it in from their arguments; `BridgeRuntime` makes
/// everything from it.
public struct RuntimeConfiguration {
    public enum Source {
        /// `run` and the service: each strap of the configuration through its BlueZ link; `record`:
        /// `--record`'s path (each strap's file named from it), nil: no trace kept.
        case straps(record: String?)
        /// `replay`: a trace standing for the configuration's one strap. `stateKey` names its state
        /// file; `speed`: trace seconds per wall second, nil: as fast as possible (no state file, no
        /// controls: it ends before anyone could use them, and prints exactly what real time prints).
        case trace(TraceReader, stateKey: String, speed: Double?)
    }

    public var bridge: BridgeConfiguration
    public var source: Source
    public var stateDirectory: String
    public var sinks: SinkSet.Context
    /// Where `io.hrbridge.Bridge1` is served.
    public var controlBus: ControlBus
    /// The HTTP listener; nil: none, unless systemd passes a socket.
    public var listen: ListenSettings?
    /// What the listener's health answer names.
    public var version: String
    public var environment: [String: String]

    public init(bridge: BridgeConfiguration, source: Source, stateDirectory: String, sinks: SinkSet.Context, controlBus: ControlBus,
                listen: ListenSettings?, version: String, environment: [String: String]) {
        self.bridge = bridge
        self.source = source
        self.stateDirectory = stateDirectory
        self.sinks = sinks
        self.controlBus = controlBus
        self.listen = listen
        self.version = version
        self.environment = environment
    }
}
