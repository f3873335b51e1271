import FoundationEssentials
import Sensors
import LiveState

/// Sends APNs deliveries over HTTP/2 with a provider token and reads APNs' answers:
/// 200 delivered; 400 and 413 dropped with the reason; 403 ExpiredProviderToken signs a new token
/// and retries once at once; 410 Unregistered stops all sending to that token; 429 backs off;
/// 5xx and timeouts retry with capped backoff.
public final class APNsTransmitter: HTTPTransmitter {
    private let client: HTTPClient
    private let tokens: ProviderTokenSource
    private let now: @Sendable () -> Timestamp
    private let deviceTokens: Set<String>
    private var unregistered: Set<String> = []

    /// `deviceTokens`: every token this sink sends to; when all are unregistered the sink stops.
    public init(client: HTTPClient, tokens: ProviderTokenSource, deviceTokens: Set<String>, now: @escaping @Sendable () -> Timestamp) {
        self.client = client
        self.tokens = tokens
        self.deviceTokens = deviceTokens
        self.now = now
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

    /// One push, signed with the provider token; on 403 ExpiredProviderToken a new token is signed
    /// and the push tried once more. With a 410, `unregisteredAt` is APNs' own time for it (its
    /// `timestamp`, Unix seconds), when it gave one.
    func send(_ request: HTTPRequest, of delivery: Delivery) -> (outcome: DeliveryOutcome, unregisteredAt: Int64?) {
        switch attempt(request, of: delivery, renewingToken: false) {
        case let .answered(first, at):
            return (first, at)
        case .expiredProviderToken:
            switch attempt(request, of: delivery, renewingToken: true) {
            case let .answered(second, at): return (second, at)
            case let .expiredProviderToken(text): return (.rejected(text + " again after signing a new token"), nil)
            }
        }
    }

    private enum Attempt {
        case answered(DeliveryOutcome, unregisteredAt: Int64? = nil)
        /// 403 ExpiredProviderToken: `transmit` signs a new token and tries once more.
        case expiredProviderToken(String)
    }

    private func attempt(_ request: HTTPRequest, of delivery: Delivery, renewingToken: Bool) -> Attempt {
        var request = request
        if delivery.urgent, let index = request.headers.firstIndex(where: { $0.name == "apns-priority" }) {
            // It replaced an urgent update (sensor lost, sensor back) that never went out.
            request.headers[index].value = String(ActivityUpdate.immediatePriority)
        }
        do {
            let token = renewingToken ? try tokens.renew(at: now()) : try tokens.token(at: now())
            request.headers.append(HTTPHeader("authorization", "bearer \(token.text)"))
        } catch {
            return .answered(.rejected("\(error)"))
        }
        // curl's message names the URL, whose last part is the whole device token.
        switch client.send(request) {
        case let .failure(failure):
            let token = String(request.url.split(separator: "/").last ?? "")
            let text = token.isEmpty ? "\(failure)" : "\(failure)".replacing(token, with: Self.short(token))
            return .answered(.retry("APNs: \(text)", retryAfter: nil))
        case let .success(response):
            let answer = Self.answer(response.body)
            let text = "APNs \(response.status) \(answer?.reason ?? "(no reason)")"
            if response.status == 403, answer?.reason == "ExpiredProviderToken" { return .expiredProviderToken(text) }
            return .answered(outcome(of: response, text: text), unregisteredAt: answer?.timestamp.map { $0 / 1000 })
        }
    }

    private func outcome(of response: HTTPResponse, text: String) -> DeliveryOutcome {
        switch response.status {
        case 200: return .delivered
        case 410: return .destinationGone(text)
        case 429: return .throttled(text, retryAfter: response.headers["retry-after"].flatMap(Double.init))
        case 500..<600: return .retry(text, retryAfter: nil)
        default: return .rejected(text)
        }
    }

    /// APNs error bodies are `{"reason": "BadDeviceToken"}`; a 410 adds `timestamp`, the last time
    /// APNs confirmed the token invalid, in milliseconds since the epoch.
    package struct ErrorBody: Decodable {
        package let reason: String?
        package let timestamp: Int64?
    }

    package static func answer(_ body: [UInt8]) -> ErrorBody? {
        guard !body.isEmpty else { return nil }
        return try? JSONDecoder().decode(ErrorBody.self, from: Data(body))
    }

    /// Device tokens are identifiers: logs show only their first 8 characters.
    static func short(_ token: String) -> String { String(token.prefix(8)) + "…" }
}
