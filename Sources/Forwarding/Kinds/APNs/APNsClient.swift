import FoundationEssentials
import Sensors

/// APNs requests signed with the team's provider token, on one HTTP/2 connection per host (one
/// thread's): the push host (`/3/device`, `/4/broadcasts`) and the channel management host alike.
/// A 403 ExpiredProviderToken signs a new token and sends the request once more. Callers say what
/// the answer means for them.
package final class APNsClient {
    private let client: HTTPClient
    private let tokens: ProviderTokenSource
    private let now: @Sendable () -> Timestamp

    init(client: HTTPClient, tokens: ProviderTokenSource, now: @escaping @Sendable () -> Timestamp) {
        self.client = client
        self.tokens = tokens
        self.now = now
    }

    /// What came of one request.
    enum Exchange {
        /// APNs answered (after a second try with a new token, if the first was expired).
        case answered(Answer)
        /// No provider token could be signed.
        case unsigned(String)
        /// No answer: unreachable, timed out, not HTTP/2.
        case unanswered(String)
    }

    struct Answer {
        var response: HTTPResponse
        /// APNs' error body, when there is one: `{"reason": "BadDeviceToken"}` (a 410 adds `timestamp`).
        var error: ErrorBody?
        /// `APNs 400 BadExpirationDate`, for logs.
        var text: String { "APNs \(response.status) \(error?.reason ?? "(no reason)")" }
        var reason: String? { error?.reason }
    }

    /// APNs error bodies are `{"reason": "BadDeviceToken"}`; a 410 adds `timestamp`, the last time
    /// APNs confirmed the token invalid, in milliseconds since the epoch.
    package struct ErrorBody: Decodable {
        package let reason: String?
        package let timestamp: Int64?
    }

    package static func errorBody(_ body: [UInt8]) -> ErrorBody? {
        guard !body.isEmpty else { return nil }
        return try? JSONDecoder().decode(ErrorBody.self, from: Data(body))
    }

    /// `request` with the provider token; `redacting`: a device token in its URL, shortened in any
    /// message (curl's names the URL).
    func send(_ request: HTTPRequest, redacting identifier: String? = nil) -> Exchange {
        let first = attempt(request, renewingToken: false, redacting: identifier)
        guard case let .answered(answer) = first, answer.response.status == 403, answer.reason == "ExpiredProviderToken" else { return first }
        return attempt(request, renewingToken: true, redacting: identifier)
    }

    private func attempt(_ request: HTTPRequest, renewingToken: Bool, redacting identifier: String?) -> Exchange {
        var request = request
        do {
            let token = renewingToken ? try tokens.renew(at: now()) : try tokens.token(at: now())
            request.headers.append(HTTPHeader("authorization", "bearer \(token.text)"))
        } catch {
            return .unsigned("\(error)")
        }
        switch client.send(request) {
        case let .failure(failure):
            let text = identifier.map { "\(failure)".replacing($0, with: APNsTransmitter.short($0)) } ?? "\(failure)"
            return .unanswered("APNs: \(text)")
        case let .success(response):
            return .answered(Answer(response: response, error: Self.errorBody(response.body)))
        }
    }
}
