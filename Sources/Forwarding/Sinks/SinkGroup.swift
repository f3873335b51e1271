import LiveState

/// Several sinks made by one sink kind, each on its own path: the APNs sink with `--apns-broadcast`
/// pushes to tokens (`apns`) and publishes on the strap's broadcast channel (`apns-broadcast`), each
/// with its own queue, retries and spool. A session's sink set takes the parts as sinks of their
/// own (`SinkSet.make`), so each is named in the state file and owed its ends apart; used whole, it
/// hands each call to every part.
public final class SinkGroup: UpdateSink {
    public let parts: [any UpdateSink]

    public init(_ parts: [any UpdateSink]) {
        self.parts = parts
    }

    public var name: String { parts.map(\.name).joined(separator: "+") }

    /// Every part gets the update; the first failure is thrown after all had it.
    public func accept(_ update: EncodedUpdate) throws(SinkError) {
        var failure: SinkError?
        for part in parts {
            do { try part.accept(update) } catch { failure = failure ?? error }
        }
        if let failure { throw failure }
    }

    public func finish(grace: Double) {
        for part in parts { part.finish(grace: grace) }
    }

    public func settle(within seconds: Double) {
        for part in parts { part.settle(within: seconds) }
    }

    /// The parts' counts added up; the last error of the last part that had one.
    public var counters: SinkCounters {
        var total = SinkCounters()
        for counters in parts.map(\.counters) {
            total.sent += counters.sent
            total.retried += counters.retried
            total.superseded += counters.superseded
            total.dropped += counters.dropped
            total.failed += counters.failed
            total.spooled += counters.spooled
            total.held += counters.held
            total.lastError = counters.lastError ?? total.lastError
        }
        return total
    }

    public var owedActivities: Set<String> { parts.reduce([]) { $0.union($1.owedActivities) } }
    public var reachesReceivers: Bool { parts.contains { $0.reachesReceivers } }
    public var waitingCount: Int { parts.reduce(0) { $0 + $1.waitingCount } }
    public var heldActivities: [String: String] { parts.reduce([:]) { $0.merging($1.heldActivities) { first, _ in first } } }
    public var haltedReason: String? { parts.lazy.compactMap(\.haltedReason).first }
    public var spoolBytes: Int { parts.reduce(0) { $0 + $1.spoolBytes } }
}
