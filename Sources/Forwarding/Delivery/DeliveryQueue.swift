/// The pending deliveries of one sink, oldest first (pure: no I/O, no clock).
///
/// Rules (DESIGN.md §5): items of one activity leave in the order they came; a content update that
/// is still unsent is replaced by a newer one for the same activity (latest state wins), in place, so
/// it stays behind that activity's start and ahead of its end, and keeps the urgency of what it
/// replaced; lifecycle items (start, end) are never
/// dropped, merged or reordered. The queue is bounded: when full, the oldest unsent content update
/// of any activity makes room; lifecycle items are always admitted (at most two per activity).
public struct DeliveryQueue: Sendable {
    /// How many items may wait before content updates are dropped to make room.
    public let capacity: Int
    public private(set) var items: [Delivery] = []
    /// The head is being sent: it must not be replaced under the sender.
    public private(set) var headInFlight = false

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

    @discardableResult
    public mutating func enqueue(_ delivery: Delivery) -> Admission {
        var admission = Admission()
        if delivery.kind == .content, let last = items.lastIndex(where: { $0.activityID == delivery.activityID }),
           items[last].kind == .content, !(last == 0 && headInFlight) {
            admission.superseded.append(items[last])
            var replacement = delivery
            replacement.urgent = delivery.urgent || items[last].urgent
            items[last] = replacement
            return admission
        }
        if items.count >= capacity, delivery.kind == .content || items.contains(where: { $0.kind == .content }) {
            let firstMovable = headInFlight ? 1 : 0
            if let oldest = items.indices.dropFirst(firstMovable).first(where: { items[$0].kind == .content }) {
                admission.dropped.append(items.remove(at: oldest))
            } else if delivery.kind == .content {
                // Only lifecycle items (or the one being sent) wait: they matter more than this content.
                admission.dropped.append(delivery)
                return admission
            }
        }
        items.append(delivery)
        return admission
    }

    /// The next item to send, now marked in flight; nil when empty.
    public mutating func beginSending() -> Delivery? {
        guard let head = items.first else { return nil }
        headInFlight = true
        return head
    }

    /// The head was delivered, or refused for good: it leaves the queue.
    public mutating func finishSending() {
        guard headInFlight else { return }
        items.removeFirst()
        headInFlight = false
    }

    /// The head failed and will be retried, unless a newer content update of the same activity
    /// arrived meanwhile (with no lifecycle step between them): then the head is superseded and returned.
    public mutating func retryLater() -> Delivery? {
        guard headInFlight else { return nil }
        headInFlight = false
        let head = items[0]
        guard head.kind == .content,
              let next = items.indices.dropFirst().first(where: { items[$0].activityID == head.activityID }),
              items[next].kind == .content
        else { return nil }
        items[next].urgent = items[next].urgent || head.urgent
        items.removeFirst()
        return head
    }

    /// Takes every waiting item out (shutdown, or a sink that can no longer deliver).
    public mutating func removeAll() -> [Delivery] {
        defer { items = []; headInFlight = false }
        return items
    }
}
