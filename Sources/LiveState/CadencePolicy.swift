/// When an update is worth sending. Every threshold is here, named, with its reason; the CLI
/// exposes each as a flag (docs/live-activity-updates.md). Durations are in seconds.
public struct CadencePolicy: Sendable, Hashable {
    /// The number shown leans toward the median of the valid samples of the last `smoothingWindow`
    /// seconds (`RecentRates.chosenRate`): long enough to be steady, so a spike or a dropout's dip
    /// that the trend would carry on is pulled back.
    public var smoothingWindow: Double = 30

    /// The trend is the least-squares slope of the last `trendWindow` seconds of samples, carried
    /// `trendHorizon` seconds ahead: a number that covers the next seconds of a drift needs fewer
    /// corrections than the newest sample (on the shared recordings, about half as many on a climb).
    public var trendWindow: Double = 20
    public var trendHorizon: Double = 10

    /// Send when the newest sample is more than this far from the number shown, or across a zone
    /// boundary: the phone's number is held within ±5 bpm of the strap's, finer than anyone acts on
    /// at a glance. The newest sample is the truth until the next one, so a correction waits for
    /// nothing but the floor (and, for an artefact, the patience below).
    public var changeThreshold: Int = 5

    /// A change that began with a drop of at least `artefactDrop` bpm between two samples waits this
    /// long before it is shown: a strap missing beats reads ~10 bpm low for a few seconds and
    /// recovers (`Excursion`). Waiting 8 s skips most of those (a tempo run: 48 → 38 updates for
    /// 1.3 points of time within ±5); a real drop still shows within 8 s.
    public var artefactPatience: Double = 8
    public var artefactDrop: Int = 7

    /// Distance rides along: every update carries the current distance, and one goes for the
    /// distance alone (priority 5, under the same floor) only once the phone's distance is behind by
    /// the larger of this and `distanceLagShare` of the distance so far. 250 m is a minute and a half
    /// of running, half a minute of riding: what a glance at a workout's distance rounds away, and
    /// far enough that the updates a heart rate sends anyway carry most of it.
    public var distanceStep: Double = 250

    /// The lag allowed grows with the distance (2 %: 200 m into a 10 km run, 2 km into a 100 km
    /// ride), as the precision a person reads a long distance with does.
    public var distanceLagPercent: Double = 2

    /// How far the phone's distance may fall behind `distance` metres before it is worth an update.
    func distanceLagBound(at distance: Double) -> Double { max(distanceStep, distanceLagPercent / 100 * distance) }

    /// Zone lower bounds in bpm (e.g. 114,133,152,171). Crossing one is worth an update even below the
    /// threshold. Zones are personal (max HR, lab test), so there are none unless configured.
    public var zoneBoundaries: [Int] = []

    /// A boundary counts as crossed only this far past it, so a rate hovering on it does not flap.
    public var zoneHysteresis: Int = 1

    /// Routine updates (changed, refresh) are at least this far apart; state changes (start, sensor
    /// lost/back, pause/resume, label, end) are not held back. Short, because the threshold already
    /// keeps a steady rate quiet, and a fast climb is when the number matters most.
    public var minimumInterval: Double = 3

    /// Each update's stale date is this far after it (the seed design's 120 s): when the bridge itself
    /// goes quiet, the phone shows the content as outdated after this.
    public var staleWindow: Double = 120

    /// Refresh this long before the previous update's stale date, so delivery delay (priority 5 pushes
    /// may be held back by the system) never lets live content go stale.
    public var refreshLead: Double = 20

    /// No valid sample for this long means the sensor is lost. Ten missed 1 Hz notifications; longer than
    /// the logging gaps of watch "smart recording" (up to ~9 s), which are not a loss.
    public var silenceTimeout: Double = 10

    /// Samples saying "no skin contact" (or rate 0) for this long since the last valid one mean the sensor
    /// is lost: the strap says it cannot measure, so the only wait is for a brief slip.
    public var noContactTimeout: Double = 5

    /// A sensor lost this long (since its last valid sample) ends the activity: the workout is over.
    public var giveUpInterval: Double = 600

    /// ActivityKit ends an activity after 8 hours.
    public var activityTimeLimit: Double = 8 * 3600

    /// We end it this much earlier, so the last state on the Lock Screen is our final one, not a cut-off.
    public var timeLimitMargin: Double = 60

    /// When an activity hits the time limit while the sensor is still live, start the next one at once.
    public var continueAfterTimeLimit = true

    /// The final state stays on the Lock Screen this long (Apple suggests 15–30 min for a workout).
    public var dismissalDelay: Double = 1800

    /// Priority-10 pushes per activity in any 60-minute window, start and end included; past it a
    /// sensor-lost or sensor-back goes at priority 5 (a demotion). APNs throttles priority 10 past an
    /// undisclosed hourly budget; 12 leaves room for a start, an end and five real dropouts an hour.
    public var urgentPerHour: Int = 12

    /// A flapping strap must not flap the Lock Screen: a sensor-back less than this after the
    /// sensor-lost it ends, or a sensor-lost less than this after the previous return, goes at
    /// priority 5. Both are still sent when they happen (the number shown at once, its absence said
    /// within the silence timeout): flapping costs priority, never truth. Two minutes: a strap that
    /// slips and is pressed back, or a contact that dries and wets, does it within that. 0 turns the
    /// rule off (the urgency budget alone then decides).
    public var flapWindow: Double = 120

    /// Routine updates (changed, refresh) per hour of live strap on average; 0: no limit. For sinks
    /// that bill per message: a change waits for a token of the bucket (`RoutineBudget`), and while
    /// it holds fewer than two, a sudden jump waits out `artefactPatience` like a drop. Refreshes
    /// still go, so it must cover them alone.
    public var updatesPerHour: Int = 0

    public init() {}

    /// No setting may exceed this (seconds or bpm): 30 days is beyond any workout, and keeps time
    /// arithmetic in whole microseconds far from overflow.
    public static let longestDuration: Double = 30 * 86_400

    /// Rejects values that would make the engine misbehave (negative windows, refresh after stale, …).
    public func validated() throws(LiveStateError) -> CadencePolicy {
        func require(_ ok: Bool, _ name: String, _ value: Double, _ expected: String) throws(LiveStateError) {
            guard ok, value.isFinite, abs(value) <= Self.longestDuration else {
                throw .invalidSetting(name: name, value: "\(value)", expected: "\(expected), at most \(Int(Self.longestDuration))")
            }
        }
        try require(smoothingWindow > 0, "smoothingWindow", smoothingWindow, "seconds > 0")
        try require(trendWindow > 0, "trendWindow", trendWindow, "seconds > 0")
        try require(trendHorizon >= 0, "trendHorizon", trendHorizon, "seconds >= 0")
        try require(changeThreshold >= 1, "changeThreshold", Double(changeThreshold), "bpm >= 1")
        try require(artefactPatience >= 0, "artefactPatience", artefactPatience, "seconds >= 0")
        try require(artefactDrop >= 1, "artefactDrop", Double(artefactDrop), "bpm >= 1")
        try require(distanceStep > 0, "distanceStep", distanceStep, "metres > 0")
        try require((0...100).contains(distanceLagPercent), "distanceLagPercent", distanceLagPercent, "a percentage from 0 to 100")
        try require(zoneHysteresis >= 0, "zoneHysteresis", Double(zoneHysteresis), "bpm >= 0")
        try require(minimumInterval >= 0, "minimumInterval", minimumInterval, "seconds >= 0")
        try require(staleWindow > 0, "staleWindow", staleWindow, "seconds > 0")
        try require(refreshLead >= 0 && refreshLead < staleWindow, "refreshLead", refreshLead, "seconds >= 0 and below staleWindow")
        try require(staleWindow - refreshLead >= minimumInterval, "refreshLead", refreshLead,
                    "to leave at least minimumInterval between refreshes")
        try require(silenceTimeout > 0, "silenceTimeout", silenceTimeout, "seconds > 0")
        try require(noContactTimeout > 0, "noContactTimeout", noContactTimeout, "seconds > 0")
        try require(giveUpInterval > 0, "giveUpInterval", giveUpInterval, "seconds > 0")
        // Checked alone too: the margin's check below lets any limit above the margin through, and an
        // over-long one overflows the engine's microseconds.
        try require(activityTimeLimit > 0, "activityTimeLimit", activityTimeLimit, "seconds > 0")
        try require(activityTimeLimit > timeLimitMargin && timeLimitMargin >= 0, "timeLimitMargin", timeLimitMargin,
                    "seconds >= 0 and below the activity time limit")
        try require(dismissalDelay >= 0, "dismissalDelay", dismissalDelay, "seconds >= 0")
        try require((2...3600).contains(urgentPerHour), "urgentPerHour", Double(urgentPerHour),
                    "a count from 2 (a start and an end) to 3600")
        try require(flapWindow >= 0, "flapWindow", flapWindow, "seconds >= 0")
        let refreshesPerHour = Int((3600 / (staleWindow - refreshLead)).rounded(.up))
        try require(updatesPerHour == 0 || (refreshesPerHour...3600).contains(updatesPerHour), "updatesPerHour", Double(updatesPerHour),
                    "0 (no limit) or a count from \(refreshesPerHour) (the refreshes alone, one per staleWindow - refreshLead) to 3600")
        for boundary in zoneBoundaries {
            try require((1...300).contains(boundary), "zoneBoundaries", Double(boundary), "bpm between 1 and 300")
        }
        var policy = self
        policy.zoneBoundaries = Array(Set(zoneBoundaries)).sorted()
        return policy
    }
}
