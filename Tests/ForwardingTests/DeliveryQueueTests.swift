import Testing
@testable import Forwarding

/// The queue's rules as tables: each case enqueues a script and checks what waits, in order.
@Suite struct DeliveryQueueTests {
    static func item(_ activity: String, _ sequence: Int, _ kind: Delivery.Kind) -> Delivery {
        Delivery(activityID: activity, sequence: sequence, event: kind == .content ? "update" : (sequence == 1 ? "start" : "end"),
                 kind: kind, message: HTTPRequest(url: "http://127.0.0.1/", headers: [], body: []))
    }

    static func labels(_ queue: DeliveryQueue) -> [String] { queue.items.map { "\($0.activityID)\($0.sequence)" } }

    @Test func newerContentReplacesOlderUnsentContentInPlace() {
        var queue = DeliveryQueue(capacity: 10)
        queue.enqueue(Self.item("a", 1, .lifecycle))
        queue.enqueue(Self.item("a", 2, .content))
        queue.enqueue(Self.item("b", 1, .lifecycle))
        let admission = queue.enqueue(Self.item("a", 3, .content))
        #expect(admission.superseded.map(\.sequence) == [2])
        #expect(Self.labels(queue) == ["a1", "a3", "b1"])
    }

    @Test func contentNeverCrossesALifecycleStepAndLifecycleIsNeverMerged() {
        var queue = DeliveryQueue(capacity: 10)
        for item in [Self.item("a", 1, .lifecycle), Self.item("a", 2, .content), Self.item("a", 3, .lifecycle),
                     Self.item("a", 1, .lifecycle), Self.item("a", 2, .content)] {
            queue.enqueue(item)
        }
        // a second activity with the same id after an end: its update does not replace the first's.
        #expect(Self.labels(queue) == ["a1", "a2", "a3", "a1", "a2"])
        var lifecycleOnly = DeliveryQueue(capacity: 10)
        lifecycleOnly.enqueue(Self.item("a", 1, .lifecycle))
        lifecycleOnly.enqueue(Self.item("a", 9, .lifecycle))
        #expect(Self.labels(lifecycleOnly) == ["a1", "a9"])
    }

    @Test func contentThatReplacesUrgentContentBecomesUrgent() {
        var queue = DeliveryQueue(capacity: 10)
        var lost = Self.item("a", 2, .content)
        lost.urgent = true
        queue.enqueue(lost)
        queue.enqueue(Self.item("a", 3, .content))
        #expect(queue.items.map(\.urgent) == [true])
        // The same when the urgent one failed at the head and a newer one waits behind it.
        var inFlight = DeliveryQueue(capacity: 10)
        inFlight.enqueue(lost)
        _ = inFlight.beginSending()
        inFlight.enqueue(Self.item("a", 3, .content))
        #expect(inFlight.retryLater().map(\.sequence) == [2])
        #expect(inFlight.items.map { "\($0.sequence) \($0.urgent)" } == ["3 true"])
    }

    @Test func theItemBeingSentIsNotReplacedButIsSupersededWhenItFails() {
        var queue = DeliveryQueue(capacity: 10)
        queue.enqueue(Self.item("a", 2, .content))
        #expect(queue.beginSending()?.sequence == 2)
        queue.enqueue(Self.item("a", 3, .content))
        #expect(Self.labels(queue) == ["a2", "a3"])
        #expect(queue.retryLater().map(\.sequence) == [2])
        #expect(Self.labels(queue) == ["a3"])
        // A failed lifecycle step stays at the head.
        queue.enqueue(Self.item("b", 1, .lifecycle))
        queue.finishSending() // not in flight: no effect
        #expect(queue.beginSending()?.activityID == "a")
        queue.finishSending()
        #expect(queue.beginSending()?.activityID == "b")
        #expect(queue.retryLater().isEmpty)
        #expect(Self.labels(queue) == ["b1"])
    }

    /// An update stream keeps every update while deliveries succeed; a failure collapses what waits
    /// to each activity's newest, never across its start or end, the urgency kept.
    @Test func aStreamKeepsEveryUpdateUntilADeliveryFailsThenWaitingContentCollapses() {
        var queue = DeliveryQueue(capacity: 20)
        var urgent = Self.item("b", 3, .content)
        urgent.urgent = true
        for item in [Self.item("a", 2, .content), Self.item("a", 3, .content), Self.item("b", 2, .content), urgent,
                     Self.item("a", 4, .content), Self.item("a", 5, .lifecycle), Self.item("a", 1, .lifecycle),
                     Self.item("a", 2, .content), Self.item("b", 4, .content), Self.item("a", 3, .content)] {
            #expect(queue.enqueue(item, superseding: false) == .init())
        }
        #expect(Self.labels(queue) == ["a2", "a3", "b2", "b3", "a4", "a5", "a1", "a2", "b4", "a3"])
        #expect(queue.beginSending()?.sequence == 2)
        let superseded = queue.retryLater()
        #expect(superseded.map { "\($0.activityID)\($0.sequence)" } == ["a2", "b2", "a3", "b3", "a2"])
        #expect(Self.labels(queue) == ["a4", "b4", "a5", "a1", "a3"])
        #expect(queue.items.map(\.urgent) == [false, true, false, false, false])
    }

    /// An activity that must wait (no push token yet) is skipped whole: the others go on, its items
    /// keep their order and place, its newer content still replaces older, and what was in flight
    /// (not at the head) leaves from where it stands.
    @Test func aWaitingActivityIsSkippedWholeWhileOthersGoOn() {
        var queue = DeliveryQueue(capacity: 10)
        for item in [Self.item("a", 1, .lifecycle), Self.item("a", 2, .content), Self.item("b", 1, .lifecycle),
                     Self.item("b", 2, .content), Self.item("a", 3, .lifecycle)] {
            queue.enqueue(item)
        }
        #expect(queue.beginSending(skipping: ["a"])?.sequence == 1)
        #expect(queue.inFlight == 2)
        queue.enqueue(Self.item("a", 4, .content)) // behind a's end: a new run of content
        queue.enqueue(Self.item("b", 3, .content)) // replaces b2 in place, not the one in flight
        #expect(Self.labels(queue) == ["a1", "a2", "b1", "b3", "a3", "a4"])
        queue.finishSending()
        #expect(Self.labels(queue) == ["a1", "a2", "b3", "a3", "a4"])
        #expect(queue.hasItems(skipping: ["a"]))
        #expect(queue.beginSending(skipping: ["a"])?.sequence == 3)
        queue.finishSending()
        #expect(!queue.hasItems(skipping: ["a"]))
        #expect(queue.beginSending(skipping: ["a"]) == nil)
        #expect(queue.inFlight == nil)
        // Released, a goes in its own order.
        var sent: [String] = []
        while let next = queue.beginSending() {
            sent.append("\(next.activityID)\(next.sequence)")
            queue.finishSending()
        }
        #expect(sent == ["a1", "a2", "a3", "a4"])
    }

    @Test func aFullQueueDropsContentBeforeTheItemInFlightAndKeepsItsPlace() {
        var queue = DeliveryQueue(capacity: 3)
        queue.enqueue(Self.item("a", 2, .content))
        queue.enqueue(Self.item("b", 1, .lifecycle))
        queue.enqueue(Self.item("c", 2, .content))
        #expect(queue.beginSending(skipping: ["a"])?.activityID == "b")
        let admission = queue.enqueue(Self.item("d", 2, .content))
        #expect(admission.dropped.map(\.activityID) == ["a"])
        queue.finishSending()
        #expect(Self.labels(queue) == ["c2", "d2"])
    }

    @Test func aFullQueueDropsTheOldestContentButAdmitsEveryLifecycleStep() {
        var queue = DeliveryQueue(capacity: 3)
        queue.enqueue(Self.item("a", 2, .content))
        queue.enqueue(Self.item("b", 2, .content))
        queue.enqueue(Self.item("c", 2, .content))
        let admission = queue.enqueue(Self.item("d", 2, .content))
        #expect(admission.dropped.map(\.activityID) == ["a"])
        #expect(Self.labels(queue) == ["b2", "c2", "d2"])
        queue.enqueue(Self.item("e", 1, .lifecycle))
        queue.enqueue(Self.item("f", 1, .lifecycle))
        queue.enqueue(Self.item("g", 1, .lifecycle))
        queue.enqueue(Self.item("h", 1, .lifecycle))
        #expect(Self.labels(queue) == ["e1", "f1", "g1", "h1"])
        let refused = queue.enqueue(Self.item("i", 2, .content))
        #expect(refused.dropped.map(\.activityID) == ["i"])
        #expect(queue.count == 4)
    }

    @Test(arguments: [
        (RetrySchedule(initial: 1, cap: 60), [1, 2, 4, 8, 16, 32, 60, 60]),
        (RetrySchedule(initial: 10, cap: 300), [10, 20, 40, 80, 160, 300, 300, 300]),
        (RetrySchedule(initial: 0.05, multiplier: 3, cap: 1), [0.05, 0.15, 0.45, 1, 1, 1, 1, 1]),
    ])
    func retryDelaysGrowAndAreCapped(schedule: RetrySchedule, expected: [Double]) {
        let delays = (1...8).map { schedule.delay(afterFailures: $0) }
        for (delay, want) in zip(delays, expected) { #expect(abs(delay - want) < 1e-9) }
    }

    @Test(arguments: [
        // (backoff, Retry-After, delay)
        (1.0, nil, 1.0), (1.0, 0.0, 1.0), (1.0, 30.0, 30.0), (1.0, 1e9, 300.0), (1.0, Double.infinity, 1.0),
        (1.0, -5.0, 1.0), (1.0, Double.nan, 1.0), (60.0, 2.0, 60.0),
    ] as [(Double, Double?, Double)])
    func retryAfterIsAFloorWithACap(backoff: Double, retryAfter: Double?, expected: Double) {
        #expect(DeliveryWorker.delay(backoff: backoff, retryAfter: retryAfter, cap: 300) == expected)
    }
}
