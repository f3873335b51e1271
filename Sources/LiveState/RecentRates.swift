import Sensors

/// The valid samples of the last `steadyWindow` seconds before the newest one, and the number to show
/// for them (`chosenRate`). A ring: a sample in costs a store and, once the window is full, moving its
/// start past the ones that left; nothing is sorted per sample, because the chosen rate is asked for
/// only when an update goes out (about once a minute), while samples arrive at 1–50 Hz.
struct RecentRates: Sendable {
    private struct Sample: Sendable {
        var time: Int64
        var rate: Int
    }

    /// Oldest first from `head`, wrapping; the capacity is a power of two, grown to the most samples a
    /// window has held.
    private var ring: [Sample] = []
    private var head = 0
    private(set) var count = 0
    private let window: Int64

    init(windowSeconds: Double) {
        window = Int64((windowSeconds * Double(Timestamp.microsecondsPerSecond)).rounded())
    }

    /// Adds the newest sample and drops those more than the window older than it. Times never go back
    /// (the engine's clock is monotonic).
    mutating func add(rate: Int, at time: Timestamp) {
        if count == ring.count { grow() }
        let micros = time.microsecondsSinceUnixEpoch
        let mask = ring.count - 1
        ring.withUnsafeMutableBufferPointer { ring in
            ring[(head + count) & mask] = Sample(time: micros, rate: rate)
            count += 1
            while ring[head].time < micros - window {
                head = (head + 1) & mask
                count -= 1
            }
        }
    }

    private mutating func grow() {
        let capacity = max(8, ring.count * 2)
        var grown: [Sample] = []
        grown.reserveCapacity(capacity)
        for offset in 0..<count { grown.append(ring[(head + offset) & (ring.count - 1)]) }
        grown.append(contentsOf: repeatElement(Sample(time: 0, rate: 0), count: capacity - count))
        ring = grown
        head = 0
    }

    /// The sensor was lost: what it said before says nothing about the present once it is back.
    mutating func clear() {
        head = 0
        count = 0
    }

    private func sample(_ offset: Int) -> Sample { ring[(head + offset) & (ring.count - 1)] }

    var newest: Int? { count > 0 ? sample(count - 1).rate : nil }

    /// The sample before the newest (the newest itself when it is alone): how the newest arrived.
    var beforeNewest: Int? { count > 1 ? sample(count - 2).rate : newest }

    /// The number to show, nil without a sample: the newest sample moved toward where the rate is
    /// heading, so that one number stays right for longer and fewer corrections are needed.
    ///
    /// `newest + clamp(slope × horizon + ½ × (median − newest), ±margin)`, rounded half to even:
    /// - the least-squares slope of the last `trendWindow` seconds, carried `horizon` seconds ahead —
    ///   a drift (0.3 bpm/s on a tempo run) stays in the band about twice as long as the newest
    ///   sample alone would;
    /// - half-way back toward the median of the whole window — after a spike or a dropout's dip the
    ///   trend points the wrong way, and the median, which a spike cannot move, pulls it back;
    /// - at most `margin` from the newest sample, which is the truth until the next one: the margin
    ///   is one less than the change threshold, so the number shown starts inside the band with a
    ///   beat to spare for 1 bpm noise.
    func chosenRate(trendWindow: Double, horizon: Double, margin: Int) -> Int? {
        guard count > 0 else { return nil }
        let latest = sample(count - 1)
        let trendStart = latest.time - Int64((trendWindow * Double(Timestamp.microsecondsPerSecond)).rounded())
        // Seconds relative to the newest sample, so the sums stay small and exact enough.
        var points = 0.0, sumT = 0.0, sumR = 0.0, sumTT = 0.0, sumTR = 0.0
        var rates: [Int] = []
        rates.reserveCapacity(count)
        for offset in 0..<count {
            let entry = sample(offset)
            rates.append(entry.rate)
            guard entry.time >= trendStart else { continue }
            let t = Double(entry.time - latest.time) / Double(Timestamp.microsecondsPerSecond)
            let r = Double(entry.rate)
            points += 1; sumT += t; sumR += r; sumTT += t * t; sumTR += t * r
        }
        let spread = sumTT - sumT * sumT / points
        // Relative to the spread: zero up to rounding when every point has the same time.
        let slope = points >= 2 && spread > 1e-9 ? (sumTR - sumT * sumR / points) / spread : 0
        rates.sort()
        let median = Double(rates[rates.count / 2]) // the upper median: no half values
        let newest = Double(latest.rate)
        let offset = min(Double(margin), max(-Double(margin), slope * horizon + 0.5 * (median - newest)))
        return Int((newest + offset).rounded(.toNearestOrEven))
    }
}
