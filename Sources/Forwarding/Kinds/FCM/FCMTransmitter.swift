import FoundationEssentials
import LiveState
import Sensors

/// Sends FCM messages with an OAuth access token and reads FCM's answers by their `errorCode`:
/// 200 delivered; INVALID_ARGUMENT (and other 4xx) dropped with FCM's message; UNREGISTERED and
/// SENDER_ID_MISMATCH stop all sending to that token and say so; QUOTA_EXCEEDED backs off on the
/// throttled schedule and UNAVAILABLE/INTERNAL (5xx) on the unreachable one, both honouring
/// Retry-After; 401 drops the access token and sends once more with a new one, and halts the sink
/// (starts and ends spooled) if that is refused too.
final class FCMTransmitter: HTTPTransmitter {
    private let client: HTTPClient
    private let accessToken: GoogleAccessToken
    private let target: String

    init(client: HTTPClient, accessToken: GoogleAccessToken, target: FCMMessage.Target) {
        self.client = client
        self.accessToken = accessToken
        self.target = switch target {
        case let .token(token): "token \(String(token.prefix(8)))…"
        case let .topic(topic): "topic \(topic)"
        }
    }

    func transmit(_ request: HTTPRequest, of delivery: Delivery) -> DeliveryOutcome {
        var request = request
        if delivery.urgent { request.body = Self.urgent(request.body) }
        switch attempt(request) {
        case let .answered(outcome):
            return outcome
        case .unauthenticated:
            accessToken.invalidate()
            switch attempt(request) {
            case let .answered(outcome): return outcome
            case let .unauthenticated(text):
                return .halted(text + " again with a new access token: check that the service account may send with FCM for this project")
            }
        }
    }

    private enum Attempt {
        case answered(DeliveryOutcome)
        /// 401: the access token was refused; `transmit` gets a new one and tries once more.
        case unauthenticated(String)
    }

    private func attempt(_ request: HTTPRequest) -> Attempt {
        var request = request
        do {
            request.headers.append(HTTPHeader("Authorization", "Bearer \(try accessToken.token())"))
        } catch {
            switch error {
            case let .retry(text): return .answered(.retry(text, retryAfter: nil))
            case let .refused(text): return .answered(.halted(text))
            }
        }
        switch client.send(request) {
        case let .failure(failure):
            return .answered(.retry("FCM: \(failure)", retryAfter: nil))
        case let .success(response):
            let error = Self.error(response.body)
            let text = "FCM \(response.status)" + (error.map { " \($0.code)" } ?? "") + (error?.message.map { ": \($0)" } ?? "")
            let retryAfter = response.headers["retry-after"].flatMap(Double.init)
            if response.status == 401 { return .unauthenticated(text) }
            switch (response.status, error?.code) {
            case (200..<300, _): return .answered(.delivered)
            case (_, "UNREGISTERED"?), (_, "SENDER_ID_MISMATCH"?):
                return .answered(.destinationGone(text + ": no more messages to \(target)"))
            case (_, "QUOTA_EXCEEDED"?), (429, _): return .answered(.throttled(text, retryAfter: retryAfter))
            case (_, "UNAVAILABLE"?), (_, "INTERNAL"?), (500..<600, _): return .answered(.retry(text, retryAfter: retryAfter))
            default: return .answered(.rejected(text))
            }
        }
    }

    /// FCM's error body: `{"error": {"code": 404, "message": "…", "status": "NOT_FOUND", "details":
    /// [{"@type": "type.googleapis.com/google.firebase.fcm.v1.FcmError", "errorCode": "UNREGISTERED"}]}}`;
    /// the `errorCode` of the FcmError detail, else the status.
    static func error(_ body: [UInt8]) -> (code: String, message: String?)? {
        guard let error = (try? JSONDecoder().decode(ErrorBody.self, from: Data(body)))?.error else { return nil }
        let code = error.details?.lazy.compactMap(\.errorCode).first ?? error.status
        return code.map { ($0, error.message) }
    }

    private struct ErrorBody: Decodable {
        struct Error: Decodable {
            struct Detail: Decodable { let errorCode: String? }
            let message: String?
            let status: String?
            let details: [Detail]?
        }
        let error: Error?
    }

    /// The body with `android.priority` high: it replaced an urgent update (sensor lost, sensor back)
    /// that never went out.
    static func urgent(_ body: [UInt8]) -> [UInt8] {
        PushBody.replacingFirst(#""priority":"normal""#, with: #""priority":"high""#, in: body)
    }
}
