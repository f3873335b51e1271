import Sensors

/// The recent valid samples, and the displayed rate: their median over the smoothing window.
/// Kept pruned to the engine's current time and mirrored in sorted order, so reading the median
/// costs nothing on the per-sample path (replay runs at millions of samples a second).
///
/// Both arrays only grow, to the most samples a window has held; `count` says how much of each is
/// in use. The samples sit in a ring, so a prune moves no sample; the sorted rates are shifted in
/// place. Per sample that is one uniqueness check per array and no allocation: the arrays'
/// own append/removeLast/removeFirst each checked uniqueness and capacity again.
struct RateWindow: Sendable {
    /// A sample's time (µs since the Unix epoch) and rate.
    private struct Sample: Sendable {
        var time: Int64
        var rate: Int
    }

    /// The window's samples, oldest first from `head`, wrapping; the capacity is a power of two.
    private var ring: [Sample] = []
    private var head = 0
    private var count = 0
    /// The rates of the window's samples, ascending, in the first `count` slots.
    private var sortedRates: [Int] = []
    private let window: Int64

    init(windowSeconds: Double) {
        window = Int64((windowSeconds * Double(Timestamp.microsecondsPerSecond)).rounded())
    }

    mutating func add(rate: Int, at time: Timestamp) {
        if count == ring.count { grow() }
        let count = self.count
        let slot = (head + count) & (ring.count - 1)
        ring.withUnsafeMutableBufferPointer { $0[slot] = Sample(time: time.microsecondsSinceUnixEpoch, rate: rate) }
        sortedRates.withUnsafeMutableBufferPointer { rates in Self.insertSorted(rate, into: rates, count: count) }
        self.count = count + 1
    }

    /// Doubles both arrays (at least 8 slots), the ring unwrapped so that `head` is 0 again.
    private mutating func grow() {
        let capacity = max(8, ring.count * 2)
        var grown: [Sample] = []
        grown.reserveCapacity(capacity)
        for offset in 0..<count { grown.append(ring[(head + offset) & (ring.count - 1)]) }
        grown.append(contentsOf: repeatElement(Sample(time: 0, rate: 0), count: capacity - count))
        ring = grown
        head = 0
        sortedRates.append(contentsOf: repeatElement(0, count: capacity - sortedRates.count))
    }

    /// The first index before `end` whose rate is greater than `rate` (`end` if none): rates ascend.
    @inline(__always)
    private static func firstIndex(in rates: UnsafeMutableBufferPointer<Int>, above rate: Int, before end: Int) -> Int {
        var (low, high) = (0, end)
        while low < high {
            let middle = (low &+ high) &>> 1 // both non-negative: no signed division
            if rates[middle] > rate { high = middle } else { low = middle + 1 }
        }
        return low
    }

    /// Puts `rate` after the first `count` sorted rates' equal and smaller ones, moving the greater up
    /// one slot, one at a time from the top. The loop stops on a compared value, so the compiler
    /// cannot make it a memmove call: under the realbluez VM's emulation glibc's vector memmove cost
    /// ~19 µs a notification at 50 Hz (`scripts/realbluez-profile`), where a plain loop costs about
    /// what its instructions do (the shifts span at most the window's samples).
    @inline(__always)
    private static func insertSorted(_ rate: Int, into rates: UnsafeMutableBufferPointer<Int>, count: Int) {
        var index = count
        while index > 0, rates[index &- 1] > rate {
            rates[index] = rates[index &- 1]
            index &-= 1
        }
        rates[index] = rate
    }

    /// Drops samples that left the window ending at `now`, but always keeps the newest: a sparse
    /// source shows its last value until the silence rule says it is lost.
    mutating func prune(at now: Timestamp) {
        let cutoff = now.microsecondsSinceUnixEpoch - window
        // Usually nothing has left (the engine prunes twice per sample, at the same time): done at once.
        guard count > 1, ring[head].time <= cutoff else { return }
        var (head, count) = (self.head, self.count)
        let mask = ring.count - 1
        ring.withUnsafeBufferPointer { ring in
            sortedRates.withUnsafeMutableBufferPointer { rates in
                repeat {
                    Self.removeSorted(ring[head].rate, from: rates, count: count)
                    head = (head + 1) & mask
                    count -= 1
                } while count > 1 && ring[head].time <= cutoff
            }
        }
        (self.head, self.count) = (head, count)
    }

    /// Removes one occurrence of `rate` (present by construction) from the first `count` sorted rates:
    /// the greater ones move down one slot, carried from the top until the removed rate is met (a
    /// loop the compiler cannot make a memmove call, as in `insertSorted`).
    @inline(__always)
    private static func removeSorted(_ rate: Int, from rates: UnsafeMutableBufferPointer<Int>, count: Int) {
        // The last occurrence: the one before the first greater rate.
        let index = firstIndex(in: rates, above: rate, before: count) - 1
        guard index >= 0, rates[index] == rate else { return }
        var slot = count &- 1
        var carried = rates[slot]
        while carried != rate { // met at `index` at the latest
            slot &-= 1
            swap(&carried, &rates[slot])
        }
    }

    mutating func clear() {
        head = 0
        count = 0
    }

    /// After `prune(at: now)`: the median of the samples in the window (even count: mean of the middle
    /// two, rounded half up), the newest sample when the window is empty, or nil when there is none.
    var displayedRate: Int? {
        guard count > 0 else { return nil }
        let middle = count / 2
        return count % 2 == 1 ? sortedRates[middle] : (sortedRates[middle - 1] + sortedRates[middle] + 1) / 2
    }

    /// After `prune(at:)`: when the displayed rate can next change without a new sample, i.e. the
    /// oldest sample leaves the window (a lone sample stays shown, so then never).
    var nextExpiry: Timestamp? {
        guard count > 1 else { return nil }
        return Timestamp(microsecondsSinceUnixEpoch: ring[head].time + window)
    }
}
