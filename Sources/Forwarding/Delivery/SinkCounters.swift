/// What one sink did, for the log at exit and the periodic status line.
public struct SinkCounters: Sendable, Equatable {
    /// Accepted by the destination.
    public var sent = 0
    /// Attempts that failed and were tried again.
    public var retried = 0
    /// Unsent content updates replaced by newer content of the same activity.
    public var superseded = 0
    /// Content updates dropped because the queue was full.
    public var dropped = 0
    /// Refused for good by the destination, or not sendable (too large).
    public var failed = 0
    /// Left undelivered at shutdown and written to the spool.
    public var spooled = 0
    /// Left undelivered at shutdown because their activity waits (for a push token): owed in the
    /// state file, sent by a later run.
    public var held = 0
    public var lastError: String?

    public init() {}

    /// `sent 12, retried 3, superseded 40, dropped 0, failed 1, spooled 0, last error: …`
    public var summary: String {
        var text = "sent \(sent), retried \(retried), superseded \(superseded), dropped \(dropped), failed \(failed), spooled \(spooled)"
        if held > 0 { text += ", held \(held)" }
        if let lastError { text += ", last error: \(lastError)" }
        return text
    }
}
