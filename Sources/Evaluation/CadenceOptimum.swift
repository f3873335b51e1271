import LiveState
import Sensors

/// The offline optimum of a cadence: with perfect hindsight, the most live time the phone's number
/// can be within the tolerance of the strap using at most k routine updates, for every k up to a
/// limit. The model is `shared/tools/oracle`'s (ported, not called): each sample's rate holds until
/// the next; a gap over `liveGap` is not live; updates are at least `spacing` apart and may show any
/// whole rate; the first update of each live stretch (the start, a return) is free. Time runs on a
/// one-second grid (sample times are rounded to it, as a 1 Hz strap's already are), on which the
/// optimum is exact. No policy that sees only the past can beat it: how close one comes at the same
/// budget is its distance from the limit. Pure: samples in, a curve out.
public struct CadenceOptimum: Sendable, Hashable {
    /// Live seconds on the grid.
    public let liveSeconds: Int
    /// `coveredSeconds[k]`: the most live seconds within the tolerance with at most k routine updates.
    public let coveredSeconds: [Int]

    /// The best share of live time within the tolerance with at most `routineUpdates` (the curve's
    /// end if that is beyond it: more updates than the limit asked for cannot do better).
    public func share(routineUpdates: Int) -> Double {
        guard liveSeconds > 0 else { return 1 }
        return Double(coveredSeconds[min(max(routineUpdates, 0), coveredSeconds.count - 1)]) / Double(liveSeconds)
    }

    /// `samples`: valid samples, oldest first. `upTo`: the largest k the curve must reach.
    /// The oracle's spacing between updates: the engine's default `minimumInterval`.
    public static let spacing = 3

    public init(samples: [(time: Timestamp, rate: Int)], upTo maximum: Int, tolerance: Int = 5, liveGap: Double = 10) {
        let segments = Self.liveSegments(samples, liveGap: liveGap)
        liveSeconds = segments.reduce(0) { $0 + $1.count }
        var total = [Int](repeating: 0, count: max(maximum, 0) + 1)
        for truth in segments {
            let curve = Self.segmentCurve(truth, upTo: maximum, tolerance: tolerance, spacing: Self.spacing)
            total = Self.combine(total, curve)
        }
        coveredSeconds = total
    }

    /// Each live stretch as its rate per second: sample k's rate from its second to the next sample's.
    static func liveSegments(_ samples: [(time: Timestamp, rate: Int)], liveGap: Double) -> [[Int]] {
        var segments: [[Int]] = []
        var current: [Int] = []
        let seconds = samples.map { Int(($0.time.seconds(since: Timestamp(unixSeconds: 0))).rounded()) }
        for index in samples.indices.dropLast() {
            let gap = seconds[index + 1] - seconds[index]
            guard Double(gap) <= liveGap else {
                if !current.isEmpty { segments.append(current) }
                current = []
                continue
            }
            current += repeatElement(samples[index].rate, count: gap)
        }
        if !current.isEmpty { segments.append(current) }
        return segments
    }

    private static let impossible = Int.min / 4

    /// `best[k]` for one live stretch: the most seconds within the tolerance with at most k routine
    /// updates after the free first one. A dynamic programme over seconds whose state is the rate
    /// shown, the seconds since the last update (0, 1, 2 or more) and the updates spent.
    static func segmentCurve(_ truth: [Int], upTo maximum: Int, tolerance: Int, spacing: Int) -> [Int] {
        precondition(spacing >= 2, "an update at most every second needs no spacing state")
        let length = truth.count
        let limit = max(0, min(maximum, (length - 1) / spacing))
        guard let low = truth.min(), let high = truth.max() else { return [0] }
        let values = high - low + 1 // a rate outside the truth's range never covers more than one inside it
        let width = limit + 1
        let plane = values * width
        // state[c * plane + v * width + k]: best so far showing low + v, c seconds after the last
        // update (the last plane: `spacing - 1` or more), k routine updates spent.
        var state = [Int](repeating: impossible, count: spacing * plane)
        var canUpdate = [Int](repeating: impossible, count: width)
        let ready = spacing - 1
        state.withUnsafeMutableBufferPointer { state in
            for v in 0..<values { state[v * width] = abs(low + v - truth[0]) <= tolerance ? 1 : 0 }
            for second in 1..<length {
                let rate = truth[second]
                // The best state that may update now: `spacing` or more seconds since the last.
                for k in 0..<width { canUpdate[k] = impossible }
                for v in 0..<values {
                    for k in 0..<width { canUpdate[k] = max(canUpdate[k], state[ready * plane + v * width + k]) }
                }
                for v in 0..<values {
                    let hit = abs(low + v - rate) <= tolerance ? 1 : 0
                    for k in 0..<width {
                        let index = v * width + k
                        // No update: each state ages a second (the oldest plane keeps its own).
                        state[ready * plane + index] = max(state[ready * plane + index], state[(ready - 1) * plane + index]) + hit
                        var c = ready - 1
                        while c > 0 {
                            state[c * plane + index] = state[(c - 1) * plane + index] + hit
                            c -= 1
                        }
                        // An update now, to this rate: one more routine update.
                        state[index] = (k > 0 ? canUpdate[k - 1] : impossible) + hit
                    }
                }
            }
        }
        var best = [Int](repeating: 0, count: width)
        for k in 0..<width {
            var most = impossible
            for c in 0..<spacing { for v in 0..<values { most = max(most, state[c * plane + v * width + k]) } }
            best[k] = max(most, k > 0 ? best[k - 1] : 0)
        }
        return best
    }

    /// Two "at most k" curves joined: the best split of k updates between them.
    static func combine(_ total: [Int], _ curve: [Int]) -> [Int] {
        var joined = total.map { $0 + curve[0] }
        for j in curve.indices.dropFirst() {
            for k in j..<total.count { joined[k] = max(joined[k], total[k - j] + curve[j]) }
        }
        return joined
    }
}

/// A policy's run beside the optimum, on the oracle's terms: the raw samples as the truth, routine
/// updates (changed, refresh) per live hour. `score.py` in `shared/tools/oracle` counts the same.
public struct OptimumComparison: Sendable, Equatable {
    /// The optimum at one budget: routine updates per live hour, the updates that allows, the share.
    public struct Budget: Sendable, Equatable {
        public var perLiveHour: Double
        public var updates: Int
        public var share: Double
    }

    /// The policy's share of live time within the tolerance of the raw samples.
    public var policyShare: Double
    public var policyRoutineUpdates: Int
    public var liveHours: Double
    /// The optimum with as many routine updates as the policy spent.
    public var optimumAtPolicyCount: Double
    public var budgets: [Budget]

    /// `rawScore`: the policy's run scored with the raw samples as the truth (`CadenceScore.Truth()`, no window).
    public init(samples: [(time: Timestamp, rate: Int)], rawScore: CadenceScore, budgets perLiveHour: [Double], tolerance: Int = 5) {
        let routine = rawScore.routineUpdates
        let liveHours = rawScore.liveSeconds / 3600
        let counts = perLiveHour.map { Int(($0 * liveHours + 1e-9).rounded(.down)) }
        let optimum = CadenceOptimum(samples: samples, upTo: max(routine, counts.max() ?? 0), tolerance: tolerance)
        policyShare = rawScore.withinToleranceShare
        policyRoutineUpdates = routine
        self.liveHours = liveHours
        optimumAtPolicyCount = optimum.share(routineUpdates: routine)
        budgets = zip(perLiveHour, counts).map { Budget(perLiveHour: $0, updates: $1, share: optimum.share(routineUpdates: $1)) }
    }
}
