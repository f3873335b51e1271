import Dispatch
import Sensors

extension StrapLinks.Strap {
    /// One workout's links: the strap's, and the distance sensor's beside it, both delivering on
    /// `queue` through one `EventOrder`, so whoever consumes (the recorder, the engine) sees one order
    /// and times that never go back. `strapEnded` after the strap's last event; `distanceEnded` after
    /// the distance sensor's.
    static func workout(strap: SensorSelector, distance: SensorSelector?, queue: DispatchQueue,
                        consume: @escaping @Sendable (StrapEvent) -> SessionError?,
                        strapEnded: @escaping @Sendable () -> Void,
                        distanceEnded: @escaping @Sendable () -> Void) -> [StrapLinks.Strap] {
        let order = EventOrder()
        let ordered: @Sendable (StrapEvent) -> SessionError? = { consume(order.ordered($0)) }
        let strapLink = StrapLinks.Strap(selector: strap, queue: queue, consume: ordered, ended: strapEnded)
        guard let distance else { return [strapLink] }
        return [strapLink, StrapLinks.Strap(selector: distance, role: .distance, queue: queue, consume: ordered, ended: distanceEnded)]
    }
}
