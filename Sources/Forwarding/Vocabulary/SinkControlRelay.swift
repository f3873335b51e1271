import LiveState
import Synchronization

/// Connects the sinks that take commands (MQTT's control topic: the actions of `hrbridge ctl`,
/// applied by the same session code) to their session, which is made after its sinks: the
/// session connects itself when it starts; until then a command is answered "not running".
public final class SinkControlRelay: Sendable {
    /// Applies a command; `reply` gets nil when it was applied, else why not.
    public typealias Handler = @Sendable (ControlAction, _ reply: @escaping @Sendable (String?) -> Void) -> Void

    private let handler = Mutex<Handler?>(nil)

    public init() {}

    public func connect(_ handler: @escaping Handler) {
        self.handler.withLock { $0 = handler }
    }

    public func send(_ command: ControlAction, reply: @escaping @Sendable (String?) -> Void) {
        guard let handler = handler.withLock({ $0 }) else { return reply("no session is running") }
        handler(command, reply)
    }
}
