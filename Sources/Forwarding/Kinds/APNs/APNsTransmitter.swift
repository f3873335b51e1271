import Sensors
import LiveState

/// Sends APNs deliveries over HTTP/2 with a provider token and reads APNs' answers:
/// 200 delivered; 400 and 413 dropped with the reason; 403 ExpiredProviderToken signs a new token
/// and retries once at once; 410 Unregistered stops all sending to that token; 429 backs off;
/// 5xx and timeouts retry with capped backoff.
public final class APNsTransmitter: HTTPTransmitter {
    private let client: APNsClient
    private let deviceTokens: Set<String>
    private var unregistered: Set<String> = []

    /// `deviceTokens`: every token this sink sends to; when all are unregistered the sink stops.
    public init(client: HTTPClient, tokens: ProviderTokenSource, deviceTokens: Set<String>, now: @escaping @Sendable () -> Timestamp) {
        self.client = APNsClient(client: client, tokens: tokens, now: now)
        self.deviceTokens = deviceTokens
    }

    public func transmit(_ request: HTTPRequest, of delivery: Delivery) -> DeliveryOutcome {
        let deviceToken = String(request.url.split(separator: "/").last ?? "")
        guard !unregistered.contains(deviceToken) else {
            return .rejected("token \(Self.short(deviceToken)) is unregistered (410); not sent")
        }
        let outcome = send(request, of: delivery).outcome
        if case .destinationGone = outcome {
            unregistered.insert(deviceToken)
            if !unregistered.isSuperset(of: deviceTokens) {
                return .rejected("APNs 410 Unregistered: stopped sending to token \(Self.short(deviceToken))")
            }
        }
        return outcome
    }

    /// One push to the device token its URL ends with, signed with the provider token (renewed once
    /// if APNs says it expired). With a 410, `unregisteredAt` is APNs' own time for it (its
    /// `timestamp`, Unix seconds), when it gave one.
    func send(_ request: HTTPRequest, of delivery: Delivery) -> (outcome: DeliveryOutcome, unregisteredAt: Int64?) {
        var request = request
        if delivery.urgent, let index = request.headers.firstIndex(where: { $0.name == "apns-priority" }) {
            // It replaced an urgent update (sensor lost, sensor back) that never went out.
            request.headers[index].value = String(ActivityUpdate.immediatePriority)
        }
        switch client.send(request, redacting: String(request.url.split(separator: "/").last ?? "")) {
        case let .unsigned(text): return (.rejected(text), nil)
        case let .unanswered(text): return (.retry(text, retryAfter: nil), nil)
        case let .answered(answer): return (Self.outcome(of: answer), answer.error?.timestamp.map { $0 / 1000 })
        }
    }

    /// What an answer to a push means: 200 delivered, 410 gone, 429 throttled (`Retry-After`
    /// honoured), 5xx retried, anything else refused for good (an expired provider token too: the
    /// client already signed a new one and APNs refused that as well).
    static func outcome(of answer: APNsClient.Answer) -> DeliveryOutcome {
        let response = answer.response
        if response.status == 403, answer.reason == "ExpiredProviderToken" { return .rejected(answer.text + " again after signing a new token") }
        switch response.status {
        case 200: return .delivered
        case 410: return .destinationGone(answer.text)
        case 429: return .throttled(answer.text, retryAfter: response.headers["retry-after"].flatMap(Double.init))
        case 500..<600: return .retry(answer.text, retryAfter: nil)
        default: return .rejected(answer.text)
        }
    }

    /// Device tokens are identifiers: logs show only their first 8 characters.
    static func short(_ token: String) -> String { String(token.prefix(8)) + "…" }
}
