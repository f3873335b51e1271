import Sensors

/// The recent valid samples, and the displayed rate: their median over the smoothing window.
/// Kept pruned to the engine's current time and mirrored in sorted order, so reading the median
/// costs nothing on the per-sample path (replay runs at millions of samples a second). Adding and
/// pruning move a few integers in place: no allocation and no generic array surgery per sample.
struct RateWindow: Sendable {
    private struct Sample: Sendable {
        var time: Timestamp
        var rate: Int
    }

    /// Oldest first, from `head` on; the slots before `head` have left the window and are dropped
    /// in one move once they are many (a queue without shifting the array on every prune).
    private var samples: [Sample] = []
    private var head = 0
    /// The rates of `samples[head...]`, ascending.
    private var sortedRates: [Int] = []
    private let window: Int64

    /// Left slots are compacted away once there are this many (and they outnumber the live ones).
    private static let compactionThreshold = 32

    init(windowSeconds: Double) {
        window = Int64((windowSeconds * Double(Timestamp.microsecondsPerSecond)).rounded())
    }

    private var count: Int { samples.count - head }

    mutating func add(rate: Int, at time: Timestamp) {
        samples.append(Sample(time: time, rate: rate))
        // Insertion step of an insertion sort: shift the larger rates up by one.
        sortedRates.append(rate)
        sortedRates.withUnsafeMutableBufferPointer { rates in
            var index = rates.count - 1
            while index > 0, rates[index - 1] > rate {
                rates[index] = rates[index - 1]
                index -= 1
            }
            rates[index] = rate
        }
    }

    /// Drops samples that left the window ending at `now`, but always keeps the newest: a sparse
    /// source shows its last value until the silence rule says it is lost.
    mutating func prune(at now: Timestamp) {
        let cutoff = now.microsecondsSinceUnixEpoch - window
        // Usually nothing has left (the engine prunes twice per sample, at the same time): done at once.
        // Without a removal the compaction below cannot have become due either: only `add` ran since.
        guard count > 1, samples[head].time.microsecondsSinceUnixEpoch <= cutoff else { return }
        repeat {
            removeSorted(samples[head].rate)
            head += 1
        } while count > 1 && samples[head].time.microsecondsSinceUnixEpoch <= cutoff
        if head >= Self.compactionThreshold, head >= count {
            samples.removeFirst(head)
            head = 0
        }
    }

    /// Removes one occurrence of `rate` (present by construction) from `sortedRates`.
    private mutating func removeSorted(_ rate: Int) {
        sortedRates.withUnsafeMutableBufferPointer { rates in
            guard var index = rates.firstIndex(of: rate) else { return }
            while index + 1 < rates.count {
                rates[index] = rates[index + 1]
                index += 1
            }
        }
        sortedRates.removeLast()
    }

    mutating func clear() {
        samples.removeAll(keepingCapacity: true)
        head = 0
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
        guard count > 1 else { return nil }
        return samples[head].time.adding(microseconds: window)
    }
}
