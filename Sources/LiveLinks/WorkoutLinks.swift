import Dispatch
import Sensors
import SessionState

extension SensorLinks.Link {
    /// One workout's links: the strap's, and the distance sensor's beside it, both delivering on
    /// `queue` through one `EventOrder`, so whoever consumes (the recorder, the engine) sees one order
    /// and times that never go back. `strapEnded` after the strap's last event; `distanceEnded` after
    /// the distance sensor's.
    static func workout(strap: SensorSelector, distance: SensorSelector?, queue: DispatchQueue,
                        consume: @escaping @Sendable (SensorEvent) -> SessionError?,
                        strapEnded: @escaping @Sendable () -> Void,
                        distanceEnded: @escaping @Sendable () -> Void) -> [SensorLinks.Link] {
        let order = EventOrder()
        let ordered: @Sendable (SensorEvent) -> SessionError? = { consume(order.ordered($0)) }
        let strapLink = SensorLinks.Link(selector: strap, queue: queue, consume: ordered, ended: strapEnded)
        guard let distance else { return [strapLink] }
        return [strapLink, SensorLinks.Link(selector: distance, role: .distance, queue: queue, consume: ordered, ended: distanceEnded)]
    }
}
