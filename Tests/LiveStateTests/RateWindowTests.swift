@testable import LiveState
import Sensors
import TestSupport
import Testing

/// The displayed rate against the definition: the median of the rates of the samples in the window
/// (always the newest), computed from scratch with a sort, over random rates with many repeats.
struct RateWindowTests {
    @Test(arguments: [0.5, 5, 12.3])
    func theMedianIsTheWindowsMedian(windowSeconds: Double) {
        var generator = SplitMix64(seed: UInt64(windowSeconds * 10))
        var window = RateWindow(windowSeconds: windowSeconds)
        var kept: [(time: Int64, rate: Int)] = []
        var micros: Int64 = 0
        for _ in 0..<5000 {
            micros += Int64(generator.next() % 400_000) // 0–0.4 s apart: windows of 0–30 samples
            let rate = 60 + Int(generator.next() % 12)
            let time = Timestamp(microsecondsSinceUnixEpoch: micros)
            window.add(rate: rate, at: time)
            window.prune(at: time)
            kept.append((micros, rate))
            let cutoff = micros - Int64((windowSeconds * 1_000_000).rounded())
            kept = Array(kept.drop { $0.time <= cutoff })
            if kept.isEmpty { kept = [(micros, rate)] }
            let sorted = kept.map(\.rate).sorted()
            let middle = sorted.count / 2
            let median = sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle] + 1) / 2
            #expect(window.displayedRate == median)
            if window.displayedRate != median { return }
        }
    }

    /// In the engine's order: deadlines between samples prune at their own time, a sample prunes at its
    /// time and is then added, a loss clears. The median is read after every step, not only after an add.
    @Test(arguments: [0.5, 5, 12.3])
    func theMedianHoldsInTheEnginesOrder(windowSeconds: Double) {
        var generator = SplitMix64(seed: UInt64(windowSeconds * 10) + 7)
        var window = RateWindow(windowSeconds: windowSeconds)
        var kept: [(time: Int64, rate: Int)] = []
        let span = Int64((windowSeconds * 1_000_000).rounded())
        var micros: Int64 = 0
        func median() -> Int? {
            let sorted = kept.map(\.rate).sorted()
            guard !sorted.isEmpty else { return nil }
            let middle = sorted.count / 2
            return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle] + 1) / 2
        }
        func prune(at now: Int64) {
            window.prune(at: Timestamp(microsecondsSinceUnixEpoch: now))
            while kept.count > 1, kept[0].time <= now - span { kept.removeFirst() }
        }
        for step in 0..<5000 {
            let next = micros + Int64(generator.next() % 400_000) // 0–0.4 s apart: windows of 0–60 samples
            if generator.next() % 3 == 0 { prune(at: micros + Int64(generator.next() % UInt64(next - micros + 1))) }
            #expect(window.displayedRate == median(), "step \(step), deadline")
            micros = next
            prune(at: micros)
            #expect(window.displayedRate == median(), "step \(step), prune")
            let rate = 60 + Int(generator.next() % 12)
            window.add(rate: rate, at: Timestamp(microsecondsSinceUnixEpoch: micros))
            kept.append((micros, rate))
            #expect(window.displayedRate == median(), "step \(step), add")
            if generator.next() % 500 == 0 {
                window.clear()
                kept.removeAll()
                #expect(window.displayedRate == nil)
            }
            if window.displayedRate != median() { return }
        }
    }
}
