import Sensors

/// When to reuse the provider token and when to sign a new one. APNs refuses tokens older than one
/// hour (403 ExpiredProviderToken) and answers 429 TooManyProviderTokenUpdates to a team that
/// renews more often than every 20 minutes; renewing at 50 minutes stays inside both limits.
public struct ProviderTokenPolicy: Sendable, Equatable {
    /// Age at which a token is replaced before use. Must lie between the two APNs limits below.
    public var renewalAge: Double
    /// APNs: no more than one new token per 20 minutes.
    public static let minimumRenewalAge: Double = 20 * 60
    /// APNs: tokens older than 60 minutes are rejected; keep 5 minutes for clock skew.
    public static let maximumRenewalAge: Double = 55 * 60

    public static let standard = ProviderTokenPolicy(renewalAge: 50 * 60)

    public init(renewalAge: Double) {
        self.renewalAge = min(max(renewalAge, Self.minimumRenewalAge), Self.maximumRenewalAge)
    }

    /// Whether a token issued at `issuedAt` should still be sent at `now`.
    public func canReuse(issuedAt: Timestamp, at now: Timestamp) -> Bool {
        let age = now.seconds(since: issuedAt)
        return age >= 0 && age < renewalAge
    }
}
