import Platform

/// One connected browser's event stream: the bytes the hub queued for it, handed out by `next` on
/// the connection's own thread, which sleeps in between (no polling: it wakes when the hub adds
/// bytes, when the hub's keep-alive comes, or when it is closed).
// Its mutable fields are read and written only with `condition` held.
public final class EventClient: @unchecked Sendable {
    /// What the client asked for.
    enum Stream: Equatable {
        /// Every update, sinks report and clock (`/v1/events`).
        case events
        /// One strap's heart rate (`/v1/heart-rate`).
        case heartRate(strap: String)
    }

    let stream: Stream
    // Guarded by `condition`.
    private let condition = ConditionLock()
    private var pending: [UInt8] = []
    private var sent = 0
    private var closed = false
    private let onClose: @Sendable (EventClient) -> Void

    init(stream: Stream, first: [UInt8], onClose: @escaping @Sendable (EventClient) -> Void) {
        self.stream = stream
        pending = first
        self.onClose = onClose
    }

    /// Queues `bytes` (called with the hub's lock held); false when the client has fallen
    /// `PreviewHub.backlogLimit` behind: it is closed at once, and its browser reconnects with
    /// Last-Event-ID and catches up from the hub's window. The hub then forgets it itself.
    func enqueue(_ bytes: [UInt8]) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        guard !closed else { return true }
        guard pending.count - sent + bytes.count <= PreviewHub.backlogLimit else {
            closed = true
            condition.broadcast()
            return false
        }
        if sent > 0, sent == pending.count {
            pending.removeAll(keepingCapacity: true)
            sent = 0
        }
        pending += bytes
        condition.broadcast()
        return true
    }

    /// The next bytes, at most `limit`, waiting until there are some; nil once closed.
    public func next(limit: Int) -> [UInt8]? {
        condition.lock()
        defer { condition.unlock() }
        while sent == pending.count, !closed { condition.wait() }
        guard sent < pending.count else { return nil }
        let end = min(pending.count, sent + max(1, limit))
        let bytes = Array(pending[sent..<end])
        sent = end
        if sent == pending.count {
            pending.removeAll(keepingCapacity: true)
            sent = 0
        }
        return bytes
    }

    /// Ends the stream: a waiting `next` returns what is queued, then nil. Safe to call more than
    /// once; not with the hub's lock held (the hub is told).
    public func close() {
        condition.lock()
        let wasOpen = !closed
        closed = true
        condition.broadcast()
        condition.unlock()
        if wasOpen { onClose(self) }
    }
}
