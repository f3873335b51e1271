/// A transmitter whose deliveries are HTTP requests.
public protocol HTTPTransmitter: Transmitter {
    func transmit(_ request: HTTPRequest, of delivery: Delivery) -> DeliveryOutcome
}

extension HTTPTransmitter {
    public func transmit(_ delivery: Delivery) -> DeliveryOutcome {
        guard let request = delivery.message as? HTTPRequest else {
            // The sink's own deliveries are requests: anything else is a bug, refused rather than trapped.
            return .rejected("\(delivery.label) holds no HTTP request")
        }
        return transmit(request, of: delivery)
    }
}
