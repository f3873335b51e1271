import LiveState

/// Where Live Activity updates go. The pipeline calls `accept` on its own thread for every update,
/// in order; network sinks hand the work to their delivery thread and return at once.
public protocol UpdateSink: AnyObject {
    /// `stdout`, `file:/path`, `https://host/hooks`, `apns` — for logs and status lines.
    var name: String { get }
    /// Every sink of a session gets the same `EncodedUpdate`: its line is encoded once for all.
    func accept(_ update: EncodedUpdate) throws(SinkError)
    /// Delivers what it can within `grace` seconds, spools undelivered lifecycle steps, closes.
    func finish(grace: Double)
    /// Delivers what waits within `seconds` and makes written lines durable, staying open: the
    /// machine is about to sleep, and what the phone shows until it wakes is the last that arrived.
    func settle(within seconds: Double)
    var counters: SinkCounters { get }
    /// After `finish`: activities whose lifecycle steps this sink neither delivered nor spooled,
    /// because they wait for what only a later run may bring (an APNs push token). The state file
    /// keeps their ends owed to it.
    var owedActivities: Set<String> { get }
    /// Whether it sends to a receiver elsewhere (a server, a broker, a phone), to whom an update's
    /// times and activity id mean something, rather than writing this machine's output.
    var reachesReceivers: Bool { get }
    /// Updates accepted and not yet sent (what a delivery thread still holds).
    var waitingCount: Int { get }
    /// Activities whose updates wait, and why (`ctl status`).
    var heldActivities: [String: String] { get }
    /// Why it stopped sending for good; nil while it sends.
    var haltedReason: String? { get }
    /// What waits on disk for a later run, in bytes.
    var spoolBytes: Int { get }
}

/// A sink that cannot go on: its output is gone (closed pipe, full disk) or its setup is wrong.
public struct SinkError: Error, Sendable, Equatable, CustomStringConvertible {
    public var sink: String
    public var message: String

    public init(sink: String, message: String) {
        self.sink = sink
        self.message = message
    }

    public var description: String { "sink \(sink): \(message)" }
}

/// A sink that writes as it accepts (stdout, a file) holds nothing back.
extension UpdateSink {
    public var owedActivities: Set<String> { [] }
    public var reachesReceivers: Bool { false }
    public var waitingCount: Int { 0 }
    public var heldActivities: [String: String] { [:] }
    public var haltedReason: String? { nil }
    public var spoolBytes: Int { 0 }

    /// One update to this sink alone (recovery's ends, tests).
    public func accept(_ update: ActivityUpdate) throws(SinkError) { try accept(EncodedUpdate(update)) }
}
