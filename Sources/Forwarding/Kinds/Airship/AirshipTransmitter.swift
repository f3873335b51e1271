import FoundationEssentials
import LiveState

/// Sends Airship pushes and reads Airship's answers: 202 (and any 2xx) delivered; 400 and other
/// 4xx dropped with Airship's error; 401 halts the sink with the fix (the app key, secret or token is
/// wrong: nothing would get through; starts and ends are spooled for a run with the right ones);
/// 429 and 5xx back off, honouring Retry-After. A retried push whose content a newer update of the
/// same activity replaced meanwhile is not sent again (the queue supersedes it), so a retry never
/// shows stale content or bills a message for it.
public final class AirshipTransmitter: HTTPTransmitter {
    private let client: HTTPClient
    private let appKey: String
    private let authorization: AirshipAuthorization

    public init(client: HTTPClient, appKey: String, authorization: AirshipAuthorization) {
        self.client = client
        self.appKey = appKey
        self.authorization = authorization
    }

    public func transmit(_ request: HTTPRequest, of delivery: Delivery) -> DeliveryOutcome {
        var request = request
        request.headers += authorization.headers(appKey: appKey)
        if delivery.urgent { request.body = Self.urgent(request.body) }
        switch client.send(request) {
        case let .failure(failure):
            return .retry("Airship: \(failure)", retryAfter: nil)
        case let .success(response):
            let text = "Airship \(response.status)" + (Self.error(response.body).map { " \($0)" } ?? "")
            let retryAfter = response.headers["retry-after"].flatMap(Double.init)
            switch response.status {
            case 200..<300: return .delivered
            case 401: return .halted(text + ": check the app key and the master secret or bearer token (and that it may push)")
            case 429: return .throttled(text, retryAfter: retryAfter)
            case 500..<600: return .retry(text, retryAfter: retryAfter)
            default: return .rejected(text)
            }
        }
    }

    /// The body with `"priority":10`: it replaced an urgent update (sensor lost, sensor back) that never
    /// went out.
    static func urgent(_ body: [UInt8]) -> [UInt8] {
        PushBody.replacingFirst(#""priority":\#(ActivityUpdate.normalPriority)"#,
                                with: #""priority":\#(ActivityUpdate.immediatePriority)"#, in: body)
    }

    /// Airship's error body: `{"ok": false, "error": "…", "error_code": 40001, "details": {…}}`.
    static func error(_ body: [UInt8]) -> String? {
        guard !body.isEmpty, let object = try? JSONDecoder().decode(ErrorBody.self, from: Data(body)) else { return nil }
        let parts = [object.code.map(String.init), object.error].compactMap { $0 }
        return parts.isEmpty ? nil : parts.joined(separator: " ")
    }

    private struct ErrorBody: Decodable {
        let error: String?
        let code: Int?

        enum CodingKeys: String, CodingKey {
            case error
            case code = "error_code"
        }
    }
}
