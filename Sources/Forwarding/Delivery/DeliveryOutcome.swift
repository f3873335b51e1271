/// What one attempt to send a delivery came to, as a transmitter classifies the answer.
public enum DeliveryOutcome: Sendable, Equatable {
    /// The server took it.
    case delivered
    /// Refused for good (bad request, payload too large): log, drop this one, go on with the next.
    case rejected(String)
    /// Not now (unreachable, timeout, 5xx): try the same item again after the unreachable backoff.
    case retry(String, retryAfter: Double?)
    /// Too many requests (429): back off on the throttled schedule.
    case throttled(String, retryAfter: Double?)
    /// The destination is gone for good (APNs 410 Unregistered): stop sending to it.
    case destinationGone(String)
    /// This activity has nowhere to go yet (APNs: no usable push token): the item stays, and the
    /// activity's items wait in place, skipped while others go on, until the sink is told something
    /// changed (`DeliveryWorker.release`) or, if given, `reconsiderAfter` seconds have passed.
    case held(String, reconsiderAfter: Double?)
    /// Nothing can be delivered until the user fixes the sink's settings (Airship 401: the app key or
    /// secret is wrong): stop sending this run, keep what waits, so starts and ends are spooled.
    case halted(String)
}

/// Sends deliveries for one sink; owned by that sink's delivery thread, so it need not be Sendable.
public protocol Transmitter {
    func transmit(_ delivery: Delivery) -> DeliveryOutcome
    /// The delivery thread is ending (orderly exit): say goodbye to the destination, close connections.
    func close()
}

extension Transmitter {
    public func close() {}
}
