import Sensors
import Synchronization

/// Hands out the current provider token, signing a new one when the policy says the old one is too
/// old or when APNs answered ExpiredProviderToken. Shared by the APNs sink's worker and its status.
public final class ProviderTokenSource: Sendable {
    public let keyID: String
    public let teamID: String
    private let key: SigningKey
    private let policy: ProviderTokenPolicy
    private let current = Mutex<ProviderToken?>(nil)

    public init(key: SigningKey, keyID: String, teamID: String, policy: ProviderTokenPolicy = .standard) {
        self.key = key
        self.keyID = keyID
        self.teamID = teamID
        self.policy = policy
    }

    public func token(at now: Timestamp) throws(SigningKeyError) -> ProviderToken {
        if let token = current.withLock({ $0 }), policy.canReuse(issuedAt: token.issuedAt, at: now) {
            return token
        }
        return try renew(at: now)
    }

    /// Signs a new token now (after ExpiredProviderToken: the server no longer accepts the old one).
    @discardableResult
    public func renew(at now: Timestamp) throws(SigningKeyError) -> ProviderToken {
        let token = try ProviderToken.sign(keyID: keyID, teamID: teamID, issuedAt: now, with: key)
        current.withLock { $0 = token }
        return token
    }
}
