/// Capped exponential backoff: `initial`, then ×`multiplier` per further failure, never above `cap`.
public struct RetrySchedule: Sendable, Equatable {
    public var initial: Double
    public var multiplier: Double
    public var cap: Double

    public init(initial: Double, multiplier: Double = 2, cap: Double) {
        self.initial = initial
        self.multiplier = multiplier
        self.cap = cap
    }

    /// Seconds to wait after the `failures`-th consecutive failure (1-based).
    public func delay(afterFailures failures: Int) -> Double {
        guard failures > 1 else { return min(initial, cap) }
        var delay = initial
        for _ in 1..<failures {
            delay *= multiplier
            if delay >= cap { return cap }
        }
        return delay
    }

    /// Unreachable server, 5xx, timeouts: start at 1 s so a blip costs little, cap at 60 s so a
    /// server back after an outage is found within a minute.
    public static let unreachable = RetrySchedule(initial: 1, cap: 60)
    /// 429 from APNs or a lifecycle server: slow down harder; cap at 5 minutes.
    public static let throttled = RetrySchedule(initial: 10, cap: 300)
}
