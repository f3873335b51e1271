import HeartRate

/// The recent valid samples, and the displayed rate: their median over the smoothing window.
struct RateWindow: Sendable {
    private struct Sample: Sendable {
        var time: Timestamp
        var rate: Int
    }

    private var samples: [Sample] = []
    private let window: Int64

    init(windowSeconds: Double) {
        window = Int64((windowSeconds * Double(Timestamp.microsecondsPerSecond)).rounded())
    }

    mutating func add(rate: Int, at time: Timestamp) {
        samples.append(Sample(time: time, rate: rate))
    }

    /// Drops samples older than the window ending at `now`, but always keeps the newest: a sparse
    /// source shows its last value until the silence rule says it is lost.
    mutating func prune(at now: Timestamp) {
        let keepFrom = samples.firstIndex { isInWindow($0, at: now) } ?? (samples.count - 1)
        if keepFrom > 0 { samples.removeFirst(keepFrom) }
    }

    mutating func clear() { samples.removeAll() }

    /// The median of the samples in the window ending at `now` (even count: mean of the middle two,
    /// rounded half up), the newest sample when the window is empty, or nil when there is none.
    func displayedRate(at now: Timestamp) -> Int? {
        var rates = samples.filter { isInWindow($0, at: now) }.map(\.rate)
        if rates.isEmpty, let newest = samples.last { rates = [newest.rate] }
        guard !rates.isEmpty else { return nil }
        rates.sort()
        let middle = rates.count / 2
        return rates.count % 2 == 1 ? rates[middle] : (rates[middle - 1] + rates[middle] + 1) / 2
    }

    /// When the displayed rate can next change without a new sample: an in-window sample expires.
    func nextExpiry(after now: Timestamp) -> Timestamp? {
        guard samples.count > 1 else { return nil } // a lone sample stays shown
        return samples.lazy.map { $0.time.adding(microseconds: self.window) }.first { $0 > now }
    }

    private func isInWindow(_ sample: Sample, at now: Timestamp) -> Bool {
        sample.time.microsecondsSinceUnixEpoch > now.microsecondsSinceUnixEpoch - window
    }
}
