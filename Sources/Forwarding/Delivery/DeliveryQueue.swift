/// The pending deliveries of one sink, oldest first (pure: no I/O, no clock).
///
/// Rules: items of one activity leave in the order they came; a content update that is still unsent
/// is replaced by a newer one for the same activity (latest state wins), in place, so it stays
/// behind that activity's start and ahead of its end, and keeps the urgency of what it replaced;
/// lifecycle items (start, end) are never dropped, merged or reordered. An activity that cannot be
/// sent to now (an APNs activity without its push token) is skipped while the others go on: its
/// items wait in place, in their order, and its newer content still replaces older. A sink whose readers want
/// every update (an MQTT update stream) enqueues without superseding while deliveries succeed, and
/// the waiting content collapses to the newest only when a delivery fails. The queue is bounded:
/// when full, the oldest unsent content update of any activity makes room; lifecycle items are
/// always admitted (at most two per activity).
public struct DeliveryQueue: Sendable {
    /// How many items may wait before content updates are dropped to make room.
    public let capacity: Int
    public private(set) var items: [Delivery] = []
    /// Where the item being sent stands (the head, unless waiting activities were skipped): it must
    /// not be replaced or moved under the sender.
    public private(set) var inFlight: Int?

    public init(capacity: Int) {
        self.capacity = max(capacity, 1)
    }

    public var isEmpty: Bool { items.isEmpty }
    public var count: Int { items.count }

    /// What enqueueing did to older items.
    public struct Admission: Equatable, Sendable {
        /// Older unsent content of the same activity, replaced by the new item.
        public var superseded: [Delivery] = []
        /// Content of another activity, dropped because the queue was full.
        public var dropped: [Delivery] = []
    }

    /// `superseding: false` keeps older unsent content of the activity (the destination is taking
    /// everything as it comes).
    @discardableResult
    public mutating func enqueue(_ delivery: Delivery, superseding: Bool = true) -> Admission {
        var admission = Admission()
        if superseding, delivery.kind == .content, let last = items.lastIndex(where: { $0.activityID == delivery.activityID }),
           items[last].kind == .content, last != inFlight {
            admission.superseded.append(items[last])
            var replacement = delivery
            replacement.urgent = delivery.urgent || items[last].urgent
            items[last] = replacement
            return admission
        }
        if items.count >= capacity, delivery.kind == .content || items.contains(where: { $0.kind == .content }) {
            if let oldest = items.indices.first(where: { items[$0].kind == .content && $0 != inFlight }) {
                admission.dropped.append(items.remove(at: oldest))
                if let sending = inFlight, oldest < sending { inFlight = sending - 1 }
            } else if delivery.kind == .content {
                // Only lifecycle items (or the one being sent) wait: they matter more than this content.
                admission.dropped.append(delivery)
                return admission
            }
        }
        items.append(delivery)
        return admission
    }

    /// The next item to send, now marked in flight: the oldest of an activity not in `waiting`
    /// (whose items all stay where they are); nil when there is none.
    public mutating func beginSending(skipping waiting: Set<String> = []) -> Delivery? {
        guard let next = waiting.isEmpty ? items.indices.first : items.firstIndex(where: { !waiting.contains($0.activityID) })
        else { return nil }
        inFlight = next
        return items[next]
    }

    /// Whether something is left to send once the activities in `waiting` are skipped.
    public func hasItems(skipping waiting: Set<String>) -> Bool {
        waiting.isEmpty ? !items.isEmpty : items.contains { !waiting.contains($0.activityID) }
    }

    /// The item in flight was delivered, or refused for good: it leaves the queue.
    public mutating func finishSending() {
        guard let sending = inFlight else { return }
        items.remove(at: sending)
        inFlight = nil
    }

    /// The item in flight cannot go yet: it failed and will be retried, or its activity must wait.
    /// What the destination could not take collapses: each run of an activity's unsent content with
    /// no lifecycle step of that activity between becomes its newest update, in the place of the
    /// run's first and with the urgency of any of them (the item in flight too, when newer content
    /// of its activity waits behind it). Returns the superseded items.
    public mutating func retryLater() -> [Delivery] {
        guard inFlight != nil else { return [] }
        inFlight = nil
        var kept: [Delivery] = []
        var superseded: [Delivery] = []
        var openRun: [String: Int] = [:] // activity → where its newest content so far stands in `kept`
        for item in items {
            guard item.kind == .content else {
                openRun[item.activityID] = nil
                kept.append(item)
                continue
            }
            if let index = openRun[item.activityID] {
                superseded.append(kept[index])
                var replacement = item
                replacement.urgent = item.urgent || kept[index].urgent
                kept[index] = replacement
            } else {
                openRun[item.activityID] = kept.count
                kept.append(item)
            }
        }
        items = kept
        return superseded
    }

    /// Takes every waiting item out (shutdown, or a sink that can no longer deliver).
    public mutating func removeAll() -> [Delivery] {
        defer { items = []; inFlight = nil }
        return items
    }
}
