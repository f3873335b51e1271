import Sensors

/// `CadencePolicy.updatesPerHour`, for sinks that bill per message: a bucket of routine updates
/// (changed, refresh) that refills at N an hour up to `capacity` and loses one per update, so over
/// any long run at most N an hour go out on average. A change is sent only when the bucket holds
/// `capacity / size` (at least 1), `size` being how many thresholds the change spans: with a full
/// bucket the threshold is the policy's, with half of it twice that — it rises while the budget is
/// short and falls again as the bucket refills. Refreshes always go (a live number must never look
/// stale) and may take the bucket below empty; the policy requires N to cover refreshes alone.
struct RoutineBudget: Sendable {
    /// Ten minutes' worth: a climb's burst of changes goes out at the policy's own threshold.
    static let burstSeconds = 600.0

    let capacity: Double
    /// Refill per microsecond.
    private let rate: Double
    private var tokens: Double
    private var asOf: Int64?

    init(perHour: Int) {
        capacity = max(1, Double(perHour) * Self.burstSeconds / 3600)
        rate = Double(perHour) / 3600 / Double(Timestamp.microsecondsPerSecond)
        tokens = capacity
    }

    private func tokens(at time: Timestamp) -> Double {
        guard let asOf else { return tokens }
        return min(capacity, tokens + Double(time.microsecondsSinceUnixEpoch - asOf) * rate)
    }

    private func needed(size: Double) -> Double { max(1, capacity / size) }

    /// Whether a change spanning `size` thresholds (≥ 1) may go out at `time`.
    func affords(size: Double, at time: Timestamp) -> Bool {
        tokens(at: time) >= needed(size: size)
    }

    /// When the bucket will hold enough for a change of `size`, if nothing is spent before.
    func whenAffordable(size: Double, after time: Timestamp) -> Timestamp {
        let missing = needed(size: size) - tokens(at: time)
        guard missing > 0 else { return time }
        // One microsecond late rather than early: rounding must not leave it just short at its deadline.
        return time.adding(microseconds: Int64((missing / rate).rounded(.up)) + 1)
    }

    /// One routine update went out at `time`.
    mutating func spend(at time: Timestamp) {
        tokens = tokens(at: time) - 1
        asOf = time.microsecondsSinceUnixEpoch
    }
}
