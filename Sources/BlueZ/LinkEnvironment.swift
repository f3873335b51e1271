import Dispatch
import Sensors

/// What a link takes from the outside world, injected so tests control it.
public struct LinkEnvironment: Sendable {
    /// Wall-clock time for the events' timestamps.
    public var clock: @Sendable () -> Timestamp
    /// A draw in 0..<1 for backoff jitter.
    public var random: @Sendable () -> Double
    /// One line of progress for a person (stderr in the CLI).
    public var log: @Sendable (String) -> Void
    /// The serial queue events are delivered on; share one between links whose events go to
    /// the same consumer, so that it is called from one queue.
    public var events: DispatchQueue
    /// Why the link is being cancelled, for the `disconnected` it sends after letting go: the bridge
    /// stopping (`stopped`: the workout ends) or the machine going to sleep (`system-sleep`: the
    /// sensor is lost for now).
    public var stopReason: @Sendable () -> String

    public init(clock: @escaping @Sendable () -> Timestamp, random: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) },
                log: @escaping @Sendable (String) -> Void, events: DispatchQueue = DispatchQueue(label: "hrbridge.strap-events"),
                stopReason: @escaping @Sendable () -> String = { SensorEvent.Kind.stoppedByBridge }) {
        self.clock = clock
        self.random = random
        self.log = log
        self.events = events
        self.stopReason = stopReason
    }
}

/// Why a link stopped for good.
public struct SensorLinkError: Error, Sendable, CustomStringConvertible {
    public let description: String
}

/// Why an attempt failed, and what the policy made of it.
struct LinkFailure: Error {
    var verdict: ReconnectPolicy.Verdict
    var reason: String
}
