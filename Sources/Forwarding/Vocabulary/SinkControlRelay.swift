import LiveState
import Synchronization

/// Connects the sinks that take commands (MQTT's control topic: the actions of `hrbridge ctl`;
/// its push-token topics: the registrations HTTP takes too), applied by the same session code, to
/// their session, which is made after its sinks: the session connects itself when it starts; until
/// then a command is answered "not running".
public final class SinkControlRelay: Sendable {
    /// Applies a command; `reply` gets nil when it was applied, else why not.
    public typealias Handler = @Sendable (ControlAction, _ reply: @escaping @Sendable (String?) -> Void) -> Void
    /// Applies a push-token request; `reply` gets what it came to, or why not.
    public typealias TokenHandler = @Sendable (PushTokenRequest, _ reply: @escaping @Sendable (Result<PushTokenReceipt, PushTokenRefusal>) -> Void) -> Void

    private let handlers = Mutex<(control: Handler, tokens: TokenHandler)?>(nil)

    public init() {}

    /// The answer before the session has connected itself (or after it let go).
    public static let notRunning = "no session is running"

    public func connect(_ handler: @escaping Handler, tokens: @escaping TokenHandler) {
        handlers.withLock { $0 = (handler, tokens) }
    }

    public func send(_ command: ControlAction, reply: @escaping @Sendable (String?) -> Void) {
        guard let handler = handlers.withLock({ $0?.control }) else { return reply(Self.notRunning) }
        handler(command, reply)
    }

    public func send(_ request: PushTokenRequest, reply: @escaping @Sendable (Result<PushTokenReceipt, PushTokenRefusal>) -> Void) {
        guard let handler = handlers.withLock({ $0?.tokens }) else { return reply(.failure(PushTokenRefusal(.unavailable, Self.notRunning))) }
        handler(request, reply)
    }
}
