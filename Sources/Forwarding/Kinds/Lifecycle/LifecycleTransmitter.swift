import FoundationEssentials
import SinkVocabulary

/// Sends lifecycle-server deliveries and reads the answers per the contract: 2xx delivered; 409
/// (the server already holds a newer sequence) dropped; 401/403 re-read the token and retry; 429
/// throttled; 408, 425 and 5xx retried (Retry-After honoured); other 4xx dropped with the server's reason.
public final class LifecycleTransmitter: HTTPTransmitter {
    private let client: HTTPClient
    /// Where the bearer token is read (again after a 401, so a rotated token needs no restart);
    /// `environment` holds it when it is a variable's. Never argv, never logged.
    private let tokenSource: SecretSource?
    private let environment: [String: String]
    private var token: String?

    public init(client: HTTPClient, tokenSource: SecretSource?, environment: [String: String]) {
        self.client = client
        self.tokenSource = tokenSource
        self.environment = environment
    }

    public func transmit(_ request: HTTPRequest, of delivery: Delivery) -> DeliveryOutcome {
        var request = request
        if let tokenSource {
            if token == nil {
                do {
                    token = try tokenSource.readLine(environment: environment, what: "bearer token").line
                } catch {
                    return .retry(error.description, retryAfter: nil)
                }
            }
            request.headers.append(HTTPHeader("Authorization", "Bearer \(token ?? "")"))
        }
        switch client.send(request) {
        case let .failure(failure):
            return .retry(failure.description, retryAfter: nil)
        case let .success(response):
            return outcome(of: response, url: request.url)
        }
    }

    private func outcome(of response: HTTPResponse, url: String) -> DeliveryOutcome {
        let status = response.status
        let reason = "\(url): HTTP \(status)" + Self.errorText(response.body).map { " \($0)" }.orEmpty
        let retryAfter = response.headers["retry-after"].flatMap(Double.init)
        switch status {
        case 200..<300: return .delivered
        case 409: return .rejected(reason + " (the server holds a newer sequence)")
        case 401, 403:
            token = nil
            return .retry(reason + " (bearer token refused; re-reading it)", retryAfter: retryAfter)
        case 429: return .throttled(reason, retryAfter: retryAfter)
        case 408, 425, 500..<600: return .retry(reason, retryAfter: retryAfter)
        default: return .rejected(reason)
        }
    }

    /// The contract's error body `{"error": "...", "message": "..."}`, or the raw text, shortened.
    package static func errorText(_ body: [UInt8]) -> String? {
        guard !body.isEmpty else { return nil }
        if let object = try? JSONDecoder().decode(ErrorBody.self, from: Data(body)) {
            let parts = [object.error, object.message].compactMap { $0 }
            if !parts.isEmpty { return parts.joined(separator: ": ") }
        }
        return String(decoding: body.prefix(200), as: UTF8.self)
    }

    private struct ErrorBody: Decodable {
        let error: String?
        let message: String?
    }
}

extension Optional where Wrapped == String {
    var orEmpty: String { self ?? "" }
}
