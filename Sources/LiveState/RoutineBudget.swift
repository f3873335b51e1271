import Sensors

/// `CadencePolicy.updatesPerHour`, for sinks that bill per message: a bucket of routine updates
/// (changed, refresh) that fills at N per hour of live strap, up to `capacity`, and loses one per
/// update, so a long run sends at most N an hour of live time on average. A change needs a whole
/// token; a refresh always goes (a live number must never look stale) and may take the bucket below
/// empty, which the policy allows only when N covers the refreshes alone.
struct RoutineBudget: Sendable {
    /// Tokens at the start: the start itself is followed by the first minutes' changes (a warm-up
    /// climbs), but a burst of a whole bucket would spend what the first quarter hour has to share.
    static let initialTokens = 2.0
    /// A quiet stretch saves up to this many for a busy one (intervals, a hill): 16 is a quarter hour
    /// at 60 an hour. A small bucket starves the busy minutes of a tempo run (docs/performance.md,
    /// "Figures behind choices in the code").
    static let capacity = 16.0

    /// Refill per microsecond of live strap.
    private let rate: Double
    private(set) var tokensAsOf: Double = initialTokens
    /// Since when the bucket fills (nil while the strap is lost: no updates are due then).
    private var fillingSince: Int64?

    init(perHour: Int) {
        rate = Double(perHour) / 3600 / Double(Timestamp.microsecondsPerSecond)
    }

    func tokens(at time: Timestamp) -> Double {
        guard let since = fillingSince else { return tokensAsOf }
        return min(Self.capacity, tokensAsOf + Double(max(0, time.microsecondsSinceUnixEpoch - since)) * rate)
    }

    /// Whether a change may go out at `time`.
    func affordsChange(at time: Timestamp) -> Bool { tokens(at: time) >= 1 }

    /// When the next whole token is there, if nothing is spent before; nil while it does not fill.
    func whenAffordable(after time: Timestamp) -> Timestamp? {
        let missing = 1 - tokens(at: time)
        guard missing > 0 else { return time }
        guard fillingSince != nil else { return nil }
        // One microsecond late rather than early: rounding must not leave it just short at its deadline.
        return time.adding(microseconds: Int64((missing / rate).rounded(.up)) + 1)
    }

    /// One routine update went out at `time`.
    mutating func spend(at time: Timestamp) {
        settle(at: time)
        tokensAsOf -= 1
    }

    /// The strap is live from `time` (a first sample, or back after a loss).
    mutating func startFilling(at time: Timestamp) {
        settle(at: time)
        fillingSince = time.microsecondsSinceUnixEpoch
    }

    /// The strap is lost at `time`: nothing accrues until it is back.
    mutating func stopFilling(at time: Timestamp) {
        settle(at: time)
        fillingSince = nil
    }

    private mutating func settle(at time: Timestamp) {
        tokensAsOf = tokens(at: time)
        if fillingSince != nil { fillingSince = time.microsecondsSinceUnixEpoch }
    }
}
