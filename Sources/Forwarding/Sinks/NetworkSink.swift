import LiveState
import Platform

/// A sink that sends over the network (lifecycle server, APNs): updates become deliveries at once,
/// a delivery thread sends them in order with retries, and undelivered lifecycle steps are spooled
/// at shutdown and sent first next time — except those of an activity that waits for something
/// only a later run may bring (an APNs push token): those stay owed in the state file (`owedActivities`).
public final class NetworkSink: UpdateSink {
    public let name: String
    private let worker: DeliveryWorker
    private let spool: Spool?
    private let makeDelivery: (EncodedUpdate) throws(SinkError) -> Delivery?
    private let log: @Sendable (String) -> Void
    public private(set) var owedActivities: Set<String> = []
    /// What the sink's kind does last at `finish`, with what the worker left undelivered and the
    /// grace's end (monotonic seconds): the broadcast path deletes the channels due by then.
    var afterFinish: ((_ leftOver: [Delivery], _ deadline: Double) -> Void)?

    /// `makeDelivery` turns an update into this sink's request (nil: nothing to send for it here).
    public init(name: String, settings: DeliveryWorker.Settings, spool: Spool?,
                log: @escaping @Sendable (String) -> Void,
                makeDelivery: @escaping (EncodedUpdate) throws(SinkError) -> Delivery?,
                makeTransmitter: @escaping @Sendable () -> any Transmitter) {
        self.name = name
        self.spool = spool
        self.log = log
        self.makeDelivery = makeDelivery
        let pending = spool?.load(warn: log) ?? []
        if !pending.isEmpty { log("sink \(name): delivering \(pending.count) spooled lifecycle steps from \(spool!.path) first") }
        worker = DeliveryWorker(name: name, settings: settings, pending: pending, log: log, makeTransmitter: makeTransmitter)
    }

    /// An update this sink cannot turn into a request (too large) is counted, logged and skipped:
    /// it is that update that is wrong, not the sink.
    public func accept(_ update: EncodedUpdate) throws(SinkError) {
        do {
            guard let delivery = try makeDelivery(update) else { return }
            worker.enqueue(delivery)
        } catch {
            worker.noteFailure(error.message)
            log(error.description)
        }
    }

    public func finish(grace: Double) {
        let deadline = MonotonicClock.seconds() + grace
        let leftOver = worker.finish(grace: grace)
        defer { afterFinish?(leftOver, deadline) }
        let held = worker.heldActivities
        let owed = leftOver.filter { $0.kind == .lifecycle && held[$0.activityID] != nil }
        let lifecycle = leftOver.filter { $0.kind == .lifecycle && held[$0.activityID] == nil }
        owedActivities = Set(owed.map(\.activityID))
        for activity in owedActivities.sorted() {
            log("sink \(name): \(activity) is still owed its \(owed.filter { $0.activityID == activity }.map(\.event).joined(separator: " and ")) "
                + "(\(held[activity]!)); kept in the state file for the next run ('hrbridge recover --list' shows it)")
        }
        let spooled = spool == nil ? 0 : lifecycle.count
        worker.noteLeftOver(spooled: spooled, held: owed.count, abandoned: leftOver.count - spooled - owed.count)
        guard let spool else {
            if !lifecycle.isEmpty { log("sink \(name): \(lifecycle.count) lifecycle steps undelivered and no spool directory") }
            return
        }
        do {
            try spool.store(lifecycle)
            if !lifecycle.isEmpty { log("sink \(name): \(lifecycle.count) undelivered lifecycle steps spooled to \(spool.path)") }
        } catch {
            log("sink \(name): cannot write the spool \(spool.path): \(error)")
        }
    }

    /// Queues a delivery that is no update of the pipeline's (MQTT's retained channel id), in turn
    /// with them. Any thread; it holds the sink's worker weakly.
    var enqueue: @Sendable (Delivery) -> Void { { [weak worker] delivery in worker?.enqueue(delivery) } }

    /// Undelivered items stay queued (not spooled): after resume the sink goes on sending them.
    public func settle(within seconds: Double) {
        worker.waitUntilDelivered(within: seconds)
    }

    /// Called when what held activities wait for may have come (a push token): each is tried again.
    /// Any thread; it holds the sink's worker weakly.
    public var releaseHeld: @Sendable () -> Void { { [weak worker] in worker?.release() } }

    public var counters: SinkCounters { worker.counterSnapshot }
    public var reachesReceivers: Bool { true }
    public var waitingCount: Int { worker.waitingCount }
    public var heldActivities: [String: String] { worker.heldActivities }
    /// `DeliveryOutcome.halted`'s reason, or its destination gone.
    public var haltedReason: String? { worker.haltedReason }
    /// The size of its spool file (0 when there is none).
    public var spoolBytes: Int { spool.map { FilePath.size(of: $0.path) } ?? 0 }
}
