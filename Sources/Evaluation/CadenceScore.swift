import LiveState
import Sensors

/// How well a run of updates served a person, measured against the true samples (issue 3's targets):
/// update count, how far the shown rate strayed from the truth, how fast a loss was said, and
/// whether live content ever sat past its stale date. Pure: samples and updates in, figures out.
public struct CadenceScore: Sendable, Hashable {
    /// Seconds from the first to the last event of the source.
    public var durationSeconds: Double
    /// Valid samples (a rate and no "no contact").
    public var samples: Int
    public var updates: Int
    /// Update count per reason (`end:*` kept apart by cause).
    public var updatesByReason: [String: Int]
    /// Updates sent at priority 10 (what APNs counts against its budget).
    public var urgentUpdates: Int
    /// Updates urgent by their reason but sent at priority 5 (`ActivityUpdate.isDemoted`).
    public var demotions: Int
    /// The most priority-10 updates one activity sent in any 60-minute window: must stay within
    /// `urgentPerHour`.
    public var largestUrgentInAnHour: Int
    /// Seconds the strap was live: from each valid sample to the next one when that came within
    /// `Truth.liveGapSeconds` (the oracle's definition, `shared/tools/oracle`). What the phone owes
    /// the truth, whatever it showed.
    public var liveSeconds: Double
    /// Of `liveSeconds`, those where the phone showed a rate within the tolerance of the truth; live
    /// time showing no number (a loss not yet over, a return held back) counts against it.
    public var withinToleranceSeconds: Double
    /// Seconds the phone showed a heart rate (between start and end, sensor not declared lost).
    public var shownSeconds: Double
    /// Gaps over `Truth.liveGapSeconds` between valid samples while an activity ran, and those the
    /// phone was told of (a sensor-lost no later than that long after the gap's last sample).
    public var dropouts: Int
    public var dropoutsSaid: Int
    /// For each sensor-lost update: seconds since the last valid sample before it.
    public var lossDelays: [Double]
    /// Seconds the phone showed a heart rate while past the latest update's stale date (should be 0).
    public var staleLiveSeconds: Double
    /// Largest attributes + content state, encoded, in bytes.
    public var largestPayloadBytes: Int
    /// How the shown distance followed the distance sensor's; nil for a run without one.
    public var distance: DistanceScore?

    public var updatesPerHour: Double { durationSeconds > 0 ? Double(updates) * 3600 / durationSeconds : 0 }
    public var urgentPerHour: Double { durationSeconds > 0 ? Double(urgentUpdates) * 3600 / durationSeconds : 0 }
    /// Share of the run the strap was live.
    public var liveShare: Double { durationSeconds > 0 ? liveSeconds / durationSeconds : 0 }
    public var withinToleranceShare: Double { liveSeconds > 0 ? withinToleranceSeconds / liveSeconds : 1 }
    /// Routine updates (changed, refresh) per hour of live time: what a per-message budget pays for,
    /// counted as the oracle counts it.
    public var routinePerLiveHour: Double { liveSeconds > 0 ? Double(routineUpdates) * 3600 / liveSeconds : 0 }
    /// Updates a per-message budget counts: `changed` and `refresh`.
    public var routineUpdates: Int {
        (updatesByReason[UpdateReason.changed.rawValue] ?? 0) + (updatesByReason[UpdateReason.refresh.rawValue] ?? 0)
    }

    /// How the truth is defined: by default each valid sample's rate until the next, what the strap
    /// said last (as `shared/tools/oracle` counts it); with a window, the median of the valid samples
    /// in the window ending at each instant (the newest sample when it holds none). Also how close
    /// counts as right, and how long a gap between samples may be for the strap to count as live
    /// across it (the default silence timeout).
    public struct Truth: Sendable, Hashable {
        public var windowSeconds: Double = 0
        public var toleranceBeatsPerMinute: Double = 5
        public var liveGapSeconds: Double = 10
        public init() {}
    }

    /// `distance`: the run's true distance, when it had a distance sensor.
    public init(
        samples: [(time: Timestamp, rate: Int)], updates: [ActivityUpdate], span: ClosedRange<Timestamp>, truth: Truth = Truth(),
        distance: DistanceTrack? = nil
    ) {
        durationSeconds = span.upperBound.seconds(since: span.lowerBound)
        self.samples = samples.count
        self.updates = updates.count
        updatesByReason = updates.reduce(into: [:]) { $0[$1.reason.rawValue, default: 0] += 1 }
        let urgent = updates.filter { $0.priority == ActivityUpdate.immediatePriority }
        urgentUpdates = urgent.count
        demotions = updates.filter(\.isDemoted).count
        largestUrgentInAnHour = Dictionary(grouping: urgent, by: \.activityID).values.map { Self.largestInAnHour($0.map(\.timestamp)) }.max() ?? 0
        largestPayloadBytes = updates.compactMap {
            try? ActivityKitEncoding.payload(attributes: $0.attributes, contentState: $0.contentState).byteCount
        }.max() ?? 0
        lossDelays = updates.filter { $0.reason == .sensorLost }.compactMap { lost in
            samples.last { $0.time <= lost.timestamp }.map { lost.timestamp.seconds(since: $0.time) }
        }
        let segments = Self.segments(samples: samples, updates: updates, span: span, truth: truth)
        liveSeconds = segments.live
        withinToleranceSeconds = segments.within
        shownSeconds = segments.shown
        staleLiveSeconds = segments.stale
        (dropouts, dropoutsSaid) = Self.dropouts(samples: samples, updates: updates, gap: truth.liveGapSeconds)
        self.distance = distance.map { DistanceScore(track: $0, updates: updates) }
    }

    /// Walks the time line in pieces where nothing changes (breakpoints: samples entering and leaving
    /// the truth window, updates, stale dates) and adds up each piece.
    private static func segments(
        samples: [(time: Timestamp, rate: Int)], updates: [ActivityUpdate], span: ClosedRange<Timestamp>, truth: Truth
    ) -> (live: Double, within: Double, shown: Double, stale: Double) {
        let window = Int64((truth.windowSeconds * Double(Timestamp.microsecondsPerSecond)).rounded())
        var breakpoints = samples.flatMap { [$0.time.microsecondsSinceUnixEpoch, $0.time.microsecondsSinceUnixEpoch + window] }
        breakpoints += updates.flatMap { [$0.timestamp.microsecondsSinceUnixEpoch, $0.staleDate.microsecondsSinceUnixEpoch] }
        let (start, end) = (span.lowerBound.microsecondsSinceUnixEpoch, span.upperBound.microsecondsSinceUnixEpoch)
        breakpoints = Array(Set(breakpoints.filter { $0 > start && $0 < end } + [start, end])).sorted()

        let liveGap = Int64((truth.liveGapSeconds * Double(Timestamp.microsecondsPerSecond)).rounded())
        var live = 0.0, within = 0.0, shownSeconds = 0.0, stale = 0.0
        var nextUpdate = 0, firstInWindow = 0, nextSample = 0
        var shown: ActivityUpdate?
        for (from, to) in zip(breakpoints, breakpoints.dropFirst()) {
            let middle = (from + to) / 2 // everything is constant on (from, to); sample it inside
            while nextUpdate < updates.count, updates[nextUpdate].timestamp.microsecondsSinceUnixEpoch <= middle {
                shown = updates[nextUpdate]
                nextUpdate += 1
            }
            while nextSample < samples.count, samples[nextSample].time.microsecondsSinceUnixEpoch <= middle { nextSample += 1 }
            while firstInWindow < nextSample, samples[firstInWindow].time.microsecondsSinceUnixEpoch <= middle - window {
                firstInWindow += 1
            }
            let seconds = Double(to - from) / Double(Timestamp.microsecondsPerSecond)
            let strapLive = nextSample > 0 && nextSample < samples.count
                && samples[nextSample].time.microsecondsSinceUnixEpoch - samples[nextSample - 1].time.microsecondsSinceUnixEpoch <= liveGap
            if strapLive { live += seconds }
            guard let shown, shown.event != .end, let rate = shown.contentState.heartRate else { continue }
            shownSeconds += seconds
            if middle > shown.staleDate.microsecondsSinceUnixEpoch { stale += seconds }
            guard strapLive else { continue }
            let inWindow = firstInWindow < nextSample
                ? samples[firstInWindow..<nextSample].map(\.rate)
                : (nextSample > 0 ? [samples[nextSample - 1].rate] : [])
            if let median = median(inWindow), abs(Double(rate) - median) <= truth.toleranceBeatsPerMinute {
                within += seconds
            }
        }
        return (live, within, shownSeconds, stale)
    }

    /// Gaps between valid samples longer than `gap` seconds that begin while an activity runs, and of
    /// those the ones with a sensor-lost in them no later than `gap` after their last sample.
    private static func dropouts(samples: [(time: Timestamp, rate: Int)], updates: [ActivityUpdate], gap: Double) -> (Int, Int) {
        let losses = updates.filter { $0.reason == .sensorLost }.map(\.timestamp)
        let ends = updates.filter { $0.event == .end }.map(\.timestamp)
        var count = 0, said = 0
        for (last, next) in zip(samples, samples.dropFirst()) where next.time.seconds(since: last.time) > gap {
            // A gap after the activity ended (the end, then samples of nobody's activity) is no dropout.
            guard let start = updates.first?.timestamp, last.time >= start, !ends.contains(where: { $0 <= last.time }) else { continue }
            count += 1
            if losses.contains(where: { $0 > last.time && $0.seconds(since: last.time) <= gap + 1e-6 && $0 <= next.time }) { said += 1 }
        }
        return (count, said)
    }

    /// The most of `times` (ascending) in any window of 60 minutes (an update exactly 60 minutes after
    /// another is in the next window, as APNs' budget and `UrgencyBudget` count it).
    private static func largestInAnHour(_ times: [Timestamp]) -> Int {
        var largest = 0, first = 0
        for (index, time) in times.enumerated() {
            while time.seconds(since: times[first]) >= 3600 { first += 1 }
            largest = max(largest, index - first + 1)
        }
        return largest
    }

    private static func median(_ rates: [Int]) -> Double? {
        guard !rates.isEmpty else { return nil }
        let sorted = rates.sorted()
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? Double(sorted[middle]) : Double(sorted[middle - 1] + sorted[middle]) / 2
    }
}

extension CadenceScore {
    /// Several traces as one: sums, with the worst loss delay and largest payload (and distance lag).
    public static func total(_ scores: [CadenceScore]) -> CadenceScore {
        var total = CadenceScore(samples: [], updates: [], span: Timestamp(unixSeconds: 0)...Timestamp(unixSeconds: 0))
        for score in scores {
            total.durationSeconds += score.durationSeconds
            total.samples += score.samples
            total.updates += score.updates
            total.updatesByReason.merge(score.updatesByReason, uniquingKeysWith: +)
            total.urgentUpdates += score.urgentUpdates
            total.demotions += score.demotions
            total.largestUrgentInAnHour = max(total.largestUrgentInAnHour, score.largestUrgentInAnHour)
            total.liveSeconds += score.liveSeconds
            total.withinToleranceSeconds += score.withinToleranceSeconds
            total.shownSeconds += score.shownSeconds
            total.dropouts += score.dropouts
            total.dropoutsSaid += score.dropoutsSaid
            total.lossDelays += score.lossDelays
            total.staleLiveSeconds += score.staleLiveSeconds
            total.largestPayloadBytes = max(total.largestPayloadBytes, score.largestPayloadBytes)
        }
        total.distance = DistanceScore.total(scores.compactMap(\.distance))
        return total
    }
}
