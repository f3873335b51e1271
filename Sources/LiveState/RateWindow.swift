import HeartRate

/// The recent valid samples, and the displayed rate: their median over the smoothing window.
/// Kept pruned to the engine's current time and mirrored in sorted order, so reading the median
/// costs nothing on the per-sample path (replay runs at a million samples a second).
struct RateWindow: Sendable {
    private struct Sample: Sendable {
        var time: Timestamp
        var rate: Int
    }

    /// Oldest first.
    private var samples: [Sample] = []
    /// The same rates, ascending.
    private var sortedRates: [Int] = []
    private let window: Int64

    init(windowSeconds: Double) {
        window = Int64((windowSeconds * Double(Timestamp.microsecondsPerSecond)).rounded())
    }

    mutating func add(rate: Int, at time: Timestamp) {
        samples.append(Sample(time: time, rate: rate))
        let index = sortedRates.firstIndex { $0 > rate } ?? sortedRates.count
        sortedRates.insert(rate, at: index)
    }

    /// Drops samples that left the window ending at `now`, but always keeps the newest: a sparse
    /// source shows its last value until the silence rule says it is lost.
    mutating func prune(at now: Timestamp) {
        let cutoff = now.microsecondsSinceUnixEpoch - window
        while samples.count > 1, samples[0].time.microsecondsSinceUnixEpoch <= cutoff {
            let leaving = samples.removeFirst()
            if let index = sortedRates.firstIndex(of: leaving.rate) { sortedRates.remove(at: index) }
        }
    }

    mutating func clear() {
        samples.removeAll(keepingCapacity: true)
        sortedRates.removeAll(keepingCapacity: true)
    }

    /// After `prune(at: now)`: the median of the samples in the window (even count: mean of the middle
    /// two, rounded half up), the newest sample when the window is empty, or nil when there is none.
    var displayedRate: Int? {
        guard !sortedRates.isEmpty else { return nil }
        let middle = sortedRates.count / 2
        return sortedRates.count % 2 == 1 ? sortedRates[middle] : (sortedRates[middle - 1] + sortedRates[middle] + 1) / 2
    }

    /// After `prune(at:)`: when the displayed rate can next change without a new sample, i.e. the
    /// oldest sample leaves the window (a lone sample stays shown, so then never).
    var nextExpiry: Timestamp? {
        guard samples.count > 1 else { return nil }
        return samples[0].time.adding(microseconds: window)
    }
}
