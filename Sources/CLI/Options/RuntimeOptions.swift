import Assembly
import Config
import FoundationEssentials

/// What `run` and paced `replay` share around their configuration: the state directory, the sinks'
/// spool and grace, the control bus and the listener, gathered into the runtime's configuration.
enum RuntimeOptions {
    static func configuration(_ arguments: ParsedArguments, bridge: BridgeConfiguration, source: RuntimeConfiguration.Source,
                              listen: ListenSettings?, flushEachLine: Bool = true, spec: CommandSpec,
                              console: Console) throws(CLIError) -> RuntimeConfiguration {
        RuntimeConfiguration(bridge: bridge, source: source, stateDirectory: SessionOptions.stateDirectory(arguments),
                             sinks: try SinkOptions.sinkContext(arguments, spec: spec, console: console, flushEachLine: flushEachLine),
                             controlBus: try ControlBusOption.parse(arguments, spec: spec), listen: listen,
                             version: HRBridge.version, environment: ProcessInfo.processInfo.environment)
    }
}
