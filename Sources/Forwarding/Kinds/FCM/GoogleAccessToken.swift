import FoundationEssentials
import Platform
import Sensors

/// An OAuth 2.0 access token for FCM, got the way Google's service accounts get one (RFC 7523): an
/// RS256-signed JWT assertion (`iss` the service account, `scope` FCM's, `aud` the token endpoint,
/// an hour's life) exchanged at the token endpoint with `grant_type=…jwt-bearer`. The token is reused
/// until shortly before it expires; a 401 from FCM drops it so the next send exchanges a new one.
final class GoogleAccessToken {
    static let scope = "https://www.googleapis.com/auth/firebase.messaging"
    /// An assertion's life; Google accepts at most an hour.
    static let assertionLifetime: Int64 = 3600
    /// Renew this long before the token's expiry, so a request never carries one that just ran out.
    static let renewalMargin: Double = 300

    private let account: FCMServiceAccount
    private let client: HTTPClient
    private let now: @Sendable () -> Timestamp
    private var current: (token: String, expires: Timestamp)?

    init(account: FCMServiceAccount, client: HTTPClient, now: @escaping @Sendable () -> Timestamp) {
        self.account = account
        self.client = client
        self.now = now
    }

    /// Why no token could be had: worth retrying (the endpoint is down) or not (the account is refused).
    enum Failure: Error {
        case retry(String)
        case refused(String)
    }

    func token() throws(Failure) -> String {
        let time = now()
        if let current, current.expires.seconds(since: time) > Self.renewalMargin { return current.token }
        return try exchange(at: time)
    }

    /// The token FCM refused: forgotten, so the next `token()` exchanges a new assertion.
    func invalidate() { current = nil }

    private func exchange(at time: Timestamp) throws(Failure) -> String {
        let signed: String
        do {
            signed = try assertion(at: time)
        } catch {
            throw .refused("cannot sign the OAuth assertion: \(error)")
        }
        let form = "grant_type=" + Self.formEncoded("urn:ietf:params:oauth:grant-type:jwt-bearer") + "&assertion=" + Self.formEncoded(signed)
        let request = HTTPRequest(url: account.tokenURI, headers: [HTTPHeader("Content-Type", "application/x-www-form-urlencoded")],
                                  body: Array(form.utf8))
        switch client.send(request) {
        case let .failure(failure):
            throw .retry("OAuth token endpoint: \(failure)")
        case let .success(response):
            guard (200..<300).contains(response.status) else {
                let detail = Self.oauthError(response.body).map { " \($0)" } ?? ""
                let text = "OAuth token endpoint \(response.status)\(detail)"
                if response.status >= 500 || response.status == 429 { throw .retry(text) }
                throw .refused(text + ": check the service-account key file (is the key still valid, is the account allowed to send?)")
            }
            guard let answer = try? JSONDecoder().decode(TokenAnswer.self, from: Data(response.body)),
                  let token = answer.access_token, !token.isEmpty
            else { throw .retry("OAuth token endpoint: an answer without access_token") }
            let lifetime = answer.expires_in ?? Double(Self.assertionLifetime)
            current = (token, time.adding(seconds: lifetime))
            return token
        }
    }

    /// Header `{"alg":"RS256","kid":…,"typ":"JWT"}` (no `kid` when the key file names none), claims
    /// `{"aud":…,"exp":…,"iat":…,"iss":…,"scope":…}`: keys sorted, slashes as they are.
    func assertion(at time: Timestamp) throws(SigningKeyError) -> String {
        let issued = time.microsecondsSinceUnixEpoch / Timestamp.microsecondsPerSecond
        var header = JSONBytes(capacity: 96)
        header.beginObject()
        header.key("alg")
        header.string("RS256")
        if let keyID = account.keyID {
            header.key("kid")
            header.string(keyID, escapingSlash: false)
        }
        header.key("typ")
        header.string("JWT")
        header.endObject()
        var claims = JSONBytes(capacity: 256)
        claims.beginObject()
        claims.key("aud")
        claims.string(account.tokenURI, escapingSlash: false)
        claims.key("exp")
        claims.integer(issued + Self.assertionLifetime)
        claims.key("iat")
        claims.integer(issued)
        claims.key("iss")
        claims.string(account.clientEmail, escapingSlash: false)
        claims.key("scope")
        claims.string(Self.scope, escapingSlash: false)
        claims.endObject()
        let signingInput = Base64URL.encode(header.bytes) + "." + Base64URL.encode(claims.bytes)
        return signingInput + "." + Base64URL.encode(try account.key.sign(Array(signingInput.utf8)))
    }

    /// application/x-www-form-urlencoded: unreserved characters as they are, the rest %XX.
    static func formEncoded(_ text: String) -> String { text.percentEncoded }

    private struct TokenAnswer: Decodable {
        let access_token: String?
        let expires_in: Double?
    }

    /// RFC 6749's error body: `{"error": "invalid_grant", "error_description": "…"}`.
    static func oauthError(_ body: [UInt8]) -> String? {
        struct ErrorBody: Decodable {
            let error: String?
            let error_description: String?
        }
        guard let object = try? JSONDecoder().decode(ErrorBody.self, from: Data(body)) else { return nil }
        let parts = [object.error, object.error_description].compactMap { $0 }
        return parts.isEmpty ? nil : parts.joined(separator: ": ")
    }
}
