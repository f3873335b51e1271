import Config
import Forwarding
import Sensors
import Session
import TestSupport

/// Two configured straps, as `run` starts them: a strap alone and one with a distance sensor, each
/// with its own file sink. The sessions' tests and the HTTP API's run over them.
public enum TwoStraps {
    public static func configuration(_ directory: TemporaryDirectory) throws -> BridgeConfiguration {
        let text = """
        {"straps": [
          {"address": "C8:5F:33:12:34:56", "workoutName": "Run", "sinks": [{"type": "file", "path": "\(directory.path("a.ndjson"))"}]},
          {"name": "Polar H10 8C4E", "distanceSensor": {"name": "Rower pod"}, "workoutName": "Row", "activityIDPrefix": "row",
           "sinks": [{"type": "file", "path": "\(directory.path("b.ndjson"))"}]}
        ]}
        """
        return try ConfigurationReader.read(Array(text.utf8), file: "test.json", kinds: SinkKinds.catalog)
    }

    public static func context(_ directory: TemporaryDirectory, console: CapturedConsole,
                               stopped: @escaping @Sendable ([SensorSelector]) -> Void = { _ in }) -> StrapSessions.Context {
        StrapSessions.Context(stateDirectory: directory.path("state"), spoolDirectory: directory.path("spool"),
                              environment: [:], console: console, onStop: stopped)
    }
}
