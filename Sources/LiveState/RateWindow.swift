import Sensors

/// The recent valid samples, and the displayed rate: their median over the smoothing window.
/// Kept pruned to the engine's current time and mirrored in sorted order, so reading the median
/// costs nothing on the per-sample path (replay runs at millions of samples a second). Adding and
/// pruning bisect and move integers in place: no allocation and no generic array surgery per sample.
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
        // Found by bisection, the larger rates moved up by one in a single memmove: at 50 Hz the
        // window holds 250 rates, which element-wise shifting walked one by one.
        sortedRates.append(rate)
        sortedRates.withUnsafeMutableBufferPointer { rates in
            let last = rates.count - 1
            let index = Self.firstIndex(in: rates, above: rate, before: last)
            Self.shift(rates, from: index, by: 1, count: last - index)
            rates[index] = rate
        }
    }

    /// The first index before `end` whose rate is greater than `rate` (`end` if none): rates ascend.
    @inline(__always)
    private static func firstIndex(in rates: UnsafeMutableBufferPointer<Int>, above rate: Int, before end: Int) -> Int {
        var (low, high) = (0, end)
        while low < high {
            let middle = (low + high) / 2
            if rates[middle] > rate { high = middle } else { low = middle + 1 }
        }
        return low
    }

    /// Moves `count` rates from `start` to `start + offset` (regions may overlap).
    @inline(__always)
    private static func shift(_ rates: UnsafeMutableBufferPointer<Int>, from start: Int, by offset: Int, count: Int) {
        guard count > 0, let base = rates.baseAddress else { return }
        UnsafeMutableRawPointer(base + start + offset).copyMemory(from: base + start, byteCount: count * MemoryLayout<Int>.stride)
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
            // The last occurrence: the one before the first greater rate.
            let index = Self.firstIndex(in: rates, above: rate, before: rates.count) - 1
            guard index >= 0, rates[index] == rate else { return }
            Self.shift(rates, from: index + 1, by: -1, count: rates.count - index - 1)
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
