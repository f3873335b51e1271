import Sensors

/// One workout's events in the order its queue runs them, each stamped no earlier than the one
/// before. The strap's link and the distance sensor's stamp their events on their own threads, and a
/// value read before a link's `connected` was stamped is delivered after it, so an event can reach
/// the queue after a later-stamped one. The recorder needs times that never go back, and the
/// engine must see the very times the trace keeps, so that a replay of the trace decides exactly
/// what the live run did: both get the event from here.
public final class EventOrder: @unchecked Sendable { // used on one workout's queue only
    private var latest: Timestamp?

    public init() {}

    public func ordered(_ event: SensorEvent) -> SensorEvent {
        var event = event
        if let latest, event.time < latest { event.time = latest }
        latest = event.time
        return event
    }
}
