import Platform

/// One network sink's delivery thread: takes deliveries from the sink's queue strictly in order,
/// sends each through the transmitter, retries with capped backoff, and reports what happened.
/// The producer (the pipeline) never blocks on the network: `enqueue` only touches the queue.
public final class DeliveryWorker: @unchecked Sendable {
    public struct Settings: Sendable {
        public var queueCapacity: Int
        public var unreachable: RetrySchedule
        public var throttled: RetrySchedule
        /// Every update goes out while the destination takes them (MQTT's update stream, which
        /// dashboards and loggers read whole); older content is superseded only while deliveries
        /// fail. Otherwise (a phone's push) unsent content is superseded as soon as newer comes.
        public var keepsEveryUpdate: Bool

        /// 256 waiting items: with one pending update per activity, only lifecycle items and many
        /// activities at once can fill it.
        public init(queueCapacity: Int = 256, unreachable: RetrySchedule = .unreachable, throttled: RetrySchedule = .throttled,
                    keepsEveryUpdate: Bool = false) {
            self.queueCapacity = queueCapacity
            self.unreachable = unreachable
            self.throttled = throttled
            self.keepsEveryUpdate = keepsEveryUpdate
        }
    }

    public let name: String
    private let settings: Settings
    private let log: @Sendable (String) -> Void
    // Everything below is guarded by `condition`.
    private let condition = ConditionLock()
    private var queue: DeliveryQueue
    private var counters = SinkCounters()
    private var consecutiveFailures = 0
    private var consecutiveThrottles = 0
    /// Monotonic seconds (`MonotonicClock`): a wall-clock step must not move a retry or the grace.
    private var retryAt: Double?
    private var stopping = false
    private var shutdownDeadline = Double.infinity
    /// The thread sends nothing more (`run` returned).
    private var stoppedSending = false
    /// …and the transmitter said goodbye: what `finish` waits for.
    private var finished = false
    private var gone: String?
    /// Why sending stopped while items stay queued for the spool (`DeliveryOutcome.halted`).
    private var halted: String?
    /// Activities whose items wait (`DeliveryOutcome.held`), and why; skipped until `release`.
    private var held: [String: String] = [:]
    /// The reason last said for each waiting activity: said again only when it changes.
    private var heldSaid: [String: String] = [:]
    /// Monotonic seconds at which held activities are tried again without a `release`.
    private var reconsiderAt: Double?

    /// Starts the thread. `makeTransmitter` runs on it, so the transmitter belongs to that thread alone.
    public init(name: String, settings: Settings = .init(), pending: [Delivery] = [],
                log: @escaping @Sendable (String) -> Void, makeTransmitter: @escaping @Sendable () -> any Transmitter) {
        self.name = name
        self.settings = settings
        self.log = log
        queue = DeliveryQueue(capacity: settings.queueCapacity)
        for delivery in pending { record(queue.enqueue(delivery)) }
        NamedThread.start("sink-\(name)") { [self] in
            let transmitter = makeTransmitter()
            run(transmitter: transmitter)
            // Finished only once the goodbye is said: an exit right after `finish` must not cut the
            // connection under it (an MQTT broker would then publish the last will).
            transmitter.close()
            condition.lock()
            finished = true
            condition.broadcast()
            condition.unlock()
        }
    }

    public func enqueue(_ delivery: Delivery) {
        condition.lock()
        defer { condition.unlock() }
        guard !stopping else { return }
        if gone != nil {
            counters.failed += 1
            return
        }
        let failing = consecutiveFailures > 0 || consecutiveThrottles > 0 || halted != nil || held[delivery.activityID] != nil
        record(queue.enqueue(delivery, superseding: !settings.keepsEveryUpdate || failing))
        condition.broadcast()
    }

    public var counterSnapshot: SinkCounters {
        condition.lock()
        defer { condition.unlock() }
        return counters
    }

    /// Why sending stopped for good while items wait for the spool (credentials refused); nil while it sends.
    public var haltedReason: String? {
        condition.lock()
        defer { condition.unlock() }
        return halted ?? gone
    }

    public var waitingCount: Int {
        condition.lock()
        defer { condition.unlock() }
        return queue.count
    }

    /// The activities whose items wait for something outside the sink (`DeliveryOutcome.held`), and why.
    public var heldActivities: [String: String] {
        condition.lock()
        defer { condition.unlock() }
        return held
    }

    /// Something the held activities waited for changed (a push token came): each is tried again.
    public func release() {
        condition.lock()
        defer { condition.unlock() }
        held = [:]
        reconsiderAt = nil
        condition.broadcast()
    }

    /// Stops taking new items, keeps delivering for up to `grace` seconds (not waiting for held
    /// activities), then stops the thread and returns what is still undelivered (the caller spools
    /// the lifecycle items, or leaves a held activity's owed to a later run).
    public func finish(grace: Double) -> [Delivery] {
        condition.lock()
        defer { condition.unlock() }
        stopping = true
        shutdownDeadline = MonotonicClock.seconds() + grace
        condition.broadcast()
        while !finished { condition.wait() }
        return queue.removeAll()
    }

    /// Waits up to `seconds` until nothing is left to send (or the sink is gone or stopped); true
    /// when everything went out. The sink stays open.
    @discardableResult
    public func waitUntilDelivered(within seconds: Double) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        let deadline = MonotonicClock.seconds() + seconds
        while queue.hasItems(skipping: Set(held.keys)), gone == nil, halted == nil, !stoppedSending {
            guard condition.wait(until: deadline) else { break }
        }
        return queue.isEmpty
    }

    /// Counts an item left at shutdown: spooled (lifecycle), held for a later run (lifecycle whose
    /// activity waits) or abandoned (stale content).
    public func noteLeftOver(spooled: Int, held: Int = 0, abandoned: Int) {
        condition.lock()
        counters.spooled += spooled
        counters.held += held
        counters.dropped += abandoned
        condition.unlock()
    }

    /// An item that never reached the queue (it could not be built).
    public func noteFailure(_ reason: String) {
        condition.lock()
        counters.failed += 1
        counters.lastError = reason
        condition.unlock()
    }

    private func record(_ admission: DeliveryQueue.Admission) {
        counters.superseded += admission.superseded.count
        counters.dropped += admission.dropped.count
    }

    private func run(transmitter: any Transmitter) {
        condition.lock()
        defer {
            stoppedSending = true
            condition.broadcast()
            condition.unlock()
        }
        while true {
            let now = MonotonicClock.seconds()
            if let reconsiderAt, now >= reconsiderAt {
                held = [:]
                self.reconsiderAt = nil
            }
            let waiting = Set(held.keys)
            let sendable = queue.hasItems(skipping: waiting)
            if gone != nil || (stopping && (!sendable || now >= shutdownDeadline || halted != nil)) { return }
            if halted != nil || !sendable {
                if let reconsiderAt { _ = condition.wait(until: min(reconsiderAt, shutdownDeadline)) } else { condition.wait() }
                continue
            }
            if let retryAt, now < retryAt {
                _ = condition.wait(until: min(retryAt, shutdownDeadline))
                continue
            }
            guard let delivery = queue.beginSending(skipping: waiting) else { continue }
            condition.unlock()
            let outcome = transmitter.transmit(delivery)
            condition.lock()
            handle(outcome, of: delivery)
        }
    }

    private func handle(_ outcome: DeliveryOutcome, of delivery: Delivery) {
        defer { condition.broadcast() } // a `waitUntilDelivered` may be waiting for this
        switch outcome {
        case .delivered:
            if LatencyTrace.isOn { LatencyTrace.note(name, activity: delivery.activityID, sequence: delivery.sequence) }
            heldSaid[delivery.activityID] = nil
            queue.finishSending()
            counters.sent += 1
            consecutiveFailures = 0
            consecutiveThrottles = 0
            retryAt = nil
        case let .rejected(reason):
            heldSaid[delivery.activityID] = nil
            queue.finishSending()
            counters.failed += 1
            counters.lastError = reason
            log("sink \(name): \(delivery.label) refused, dropped: \(reason)")
        case let .retry(reason, retryAfter):
            consecutiveFailures += 1
            let backoff = settings.unreachable.delay(afterFailures: consecutiveFailures)
            scheduleRetry(reason, of: delivery, delay: Self.delay(backoff: backoff, retryAfter: retryAfter, cap: settings.throttled.cap))
        case let .throttled(reason, retryAfter):
            consecutiveThrottles += 1
            let backoff = settings.throttled.delay(afterFailures: consecutiveThrottles)
            scheduleRetry(reason, of: delivery, delay: Self.delay(backoff: backoff, retryAfter: retryAfter, cap: settings.throttled.cap))
        case let .halted(reason):
            counters.superseded += queue.retryLater().count
            halted = reason
            counters.lastError = reason
            log("sink \(name): \(reason); nothing more is sent to it this run (starts and ends are spooled for the next)")
        case let .held(reason, reconsiderAfter):
            counters.superseded += queue.retryLater().count
            held[delivery.activityID] = reason
            if heldSaid[delivery.activityID] != reason {
                heldSaid[delivery.activityID] = reason
                log("sink \(name): \(delivery.activityID) waits: \(reason)")
            }
            if let reconsiderAfter {
                let at = MonotonicClock.seconds() + max(0, reconsiderAfter)
                reconsiderAt = min(reconsiderAt ?? at, at)
            }
        case let .destinationGone(reason):
            gone = reason
            counters.lastError = reason
            let abandoned = queue.removeAll()
            counters.failed += abandoned.count
            log("sink \(name): \(reason); no more deliveries to it (\(abandoned.count) waiting items abandoned)")
        }
    }

    /// A server's Retry-After is a floor (a `0` must not turn backoff into a busy loop), and is
    /// believed only up to `cap` (a huge value must not stall the sink for good).
    static func delay(backoff: Double, retryAfter: Double?, cap: Double) -> Double {
        guard let retryAfter, retryAfter.isFinite, retryAfter > 0 else { return backoff }
        return max(backoff, min(retryAfter, cap))
    }

    private func scheduleRetry(_ reason: String, of delivery: Delivery, delay: Double) {
        counters.retried += 1
        if counters.lastError != reason {
            log("sink \(name): \(delivery.label) not delivered, retrying in \(delay) s: \(reason)")
        }
        counters.lastError = reason
        counters.superseded += queue.retryLater().count
        retryAt = MonotonicClock.seconds() + delay
    }
}
