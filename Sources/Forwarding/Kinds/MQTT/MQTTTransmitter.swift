import Sensors

/// Publishes a delivery's messages in order at QoS 1. A start or an end is delivered once the broker
/// acknowledged each of its messages, so one the broker never took is retried and, at exit, spooled.
/// An update is delivered once the library took it (`MQTTConnection.handOver`): many are in flight
/// at once, in order, and the library sends them again after a reconnect. Not connected or dropped
/// meanwhile: retried (the whole delivery: the state is retained and the update stream is
/// at-least-once, so a repeat is harmless); refused by the broker (ACL): dropped with its reason;
/// credentials or TLS refused for good: halted, so starts and ends are spooled for a run with the
/// right settings.
final class MQTTTransmitter: Transmitter {
    private let connection: MQTTConnection
    private let now: @Sendable () -> Timestamp
    /// How long a send waits for a connection before counting as a failed attempt: long enough that a
    /// broker coming back is used at once, short enough for the worker's shutdown grace.
    static let connectionWait = 2.0
    static let acknowledgementWait = 10.0
    /// Handed-over updates awaiting their acknowledgement before the next waits: the broker's
    /// default receive maximum is 20, and the library queues the rest itself.
    static let handOverWindow = 64

    init(connection: MQTTConnection, now: @escaping @Sendable () -> Timestamp = WallClock.now) {
        self.connection = connection
        self.now = now
    }

    func transmit(_ delivery: Delivery) -> DeliveryOutcome {
        guard let publications = (delivery.message as? MQTTPublications)?.publications else {
            return .rejected("\(delivery.label) holds no MQTT messages")
        }
        let broker = connection.settings.broker
        let (connected, problem) = connection.waitForConnection(within: Self.connectionWait)
        if let refusal = connection.refusal { return .halted(refusal) }
        guard connected else { return .retry("\(broker): \(problem)", retryAfter: nil) }
        for publication in publications {
            let plan = Self.plan(publication, now: now())
            guard plan != .skip else { continue }
            let payload = plan == .clear ? [] : publication.payload
            let expiry: UInt32 = if case let .publish(seconds) = plan { seconds } else { 0 }
            let result = delivery.kind == .content && plan != .clear
                ? connection.handOver(publication, payload: payload, expirySeconds: expiry, window: Self.handOverWindow,
                                      timeout: Self.acknowledgementWait)
                : connection.publish(publication, payload: payload, expirySeconds: expiry, timeout: Self.acknowledgementWait)
            switch result {
            case .handedOver:
                continue
            case .acknowledged:
                if publication.retain, let expires = publication.expires, plan != .clear {
                    connection.clearRetained(publication.topic, at: expires)
                }
            case let .notConnected(reason):
                return .retry("\(broker): \(reason)", retryAfter: nil)
            case let .refused(reason):
                return .rejected("\(broker) refused \(reason)")
            }
        }
        return .delivered
    }

    /// What to send for a publication at `now`.
    enum Plan: Equatable {
        /// The payload, with this message expiry interval (0: none).
        case publish(expirySeconds: UInt32)
        /// Its time is over and it is retained: an empty retained message, which removes the state.
        case clear
        /// Its time is over and it is not retained: nobody should see it any more.
        case skip
    }

    static func plan(_ publication: MQTTPublication, now: Timestamp) -> Plan {
        guard let expires = publication.expires else { return .publish(expirySeconds: 0) }
        let left = expires.seconds(since: now)
        guard left > 0 else { return publication.retain ? .clear : .skip }
        return .publish(expirySeconds: UInt32(min(left.rounded(.up), Double(UInt32.max))))
    }

    func close() {
        connection.close()
    }
}
