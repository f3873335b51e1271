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
}
