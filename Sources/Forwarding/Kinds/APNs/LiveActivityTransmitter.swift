import Sensors

/// Sends the APNs sink's Live Activity pushes, each to the token `TokenRoutes` picks when it goes:
/// a push with no usable token waits (`held`) while the sink's other activities go on; a 410 marks
/// its token and the push is routed again (a newer token registered meanwhile takes it at once).
/// A spooled delivery that holds a whole request, its token in the path (a spool's `request` line),
/// goes as it is.
final class LiveActivityTransmitter: Transmitter {
    private let apns: APNsTransmitter
    private let routes: any TokenRoutes
    private let now: @Sendable () -> Timestamp

    init(apns: APNsTransmitter, routes: any TokenRoutes, now: @escaping @Sendable () -> Timestamp) {
        self.apns = apns
        self.routes = routes
        self.now = now
    }

    /// A 410 can meet a token rotated under the push once; a second in a row ends the attempt (the
    /// push is held or retried by what the route says next time).
    static let attemptsPerRoute = 2

    func transmit(_ delivery: Delivery) -> DeliveryOutcome {
        // A request: the whole push, token included.
        guard let push = delivery.message as? LiveActivityPush else { return apns.transmit(delivery) }
        for _ in 0..<Self.attemptsPerRoute {
            let time = seconds(now())
            switch routes.route(delivery, push, at: time) {
            case let .wait(reason, until):
                return .held(reason, reconsiderAfter: until.map { Double(max(0, $0 - time)) + 1 })
            case let .drop(reason):
                routes.dropped(delivery)
                return .rejected(reason)
            case let .send(token, pushToStart):
                let (outcome, unregisteredAt) = apns.send(push.request(to: token, pushToStart: pushToStart), of: delivery)
                switch outcome {
                case .delivered:
                    routes.delivered(delivery, pushToStart: pushToStart, at: seconds(now()))
                    return .delivered
                case let .destinationGone(text):
                    if let outcome = routes.unregistered(token, at: unregisteredAt ?? seconds(now()), text: text) { return outcome }
                default:
                    return outcome
                }
            }
        }
        return .retry("APNs answered 410 for two tokens of \(delivery.activityID) in a row", retryAfter: nil)
    }

    private func seconds(_ time: Timestamp) -> Int64 { APNsPayload.unixSeconds(time) }
}
