import Sensors

/// Samples, connection events and control in; Live Activity updates out. Pure and clock-free: every
/// input carries its time, and `nextDeadline` tells the driver when to call `tick(at:)` if nothing
/// arrives first (a replay advances virtual time to it; a live run sets a timer). Deadlines that fall
/// before an input are handled at their own time first, so updates never depend on how often the
/// driver ticks: replays are identical at any speed. (A deadline at exactly an input's time runs after
/// that input; a driver should tick only for deadlines strictly before its next input.)
public struct LiveStateEngine: Sendable {
    public let policy: CadencePolicy
    public let settings: ActivitySettings
    let zones: HeartRateZones
    /// The policy's durations in whole microseconds, converted once: deadlines are computed per sample.
    let durations: PolicyDurations

    var now: Timestamp?
    var recent: RecentRates
    /// The newest sample is outside the band around the number shown (nil: within, or nothing shown).
    var excursion: Excursion?
    /// True from a valid sample until the sensor is declared lost.
    var sensorLive = false
    var lastValidSample: Timestamp?
    /// The newest sample said "no contact" (or rate 0): the shorter loss timeout applies.
    var newestSampleLacksContact = false
    var activity: ActivityRecord?
    /// The running activity's deadlines, set by `publish` and cleared by `end`: nil without an activity.
    /// The deadlines are looked for after every sample, and asking `activity` for its case is an
    /// outlined call; the times change only when an update goes out.
    var activityDeadlines: ActivityDeadlines?
    var activitiesStarted = 0
    var label: String
    /// After a stop (or the time limit without continuation): no more activities.
    var finished = false
    /// Which losses and returns wake the phone.
    var flaps: FlapRule
    /// `updatesPerHour`: nil without a limit.
    var routine: RoutineBudget?

    /// Updates sent at priority 10, and those urgent by their reason but sent at 5
    /// (`ActivityUpdate.isDemoted`), over every activity so far: for `ctl status`.
    public internal(set) var urgentPushes = 0
    public internal(set) var demotions = 0

    public init(policy: CadencePolicy = CadencePolicy(), settings: ActivitySettings = ActivitySettings()) throws(LiveStateError) {
        self.policy = try policy.validated()
        self.settings = settings
        zones = HeartRateZones(boundaries: self.policy.zoneBoundaries, hysteresis: self.policy.zoneHysteresis)
        durations = PolicyDurations(self.policy)
        recent = RecentRates(windowSeconds: self.policy.smoothingWindow)
        label = settings.intervalLabel
        flaps = FlapRule(self.policy)
        routine = self.policy.updatesPerHour > 0 ? RoutineBudget(perHour: self.policy.updatesPerHour) : nil
        try Self.checkFits(workoutName: settings.workoutName, label: label)
    }

    /// The distance the running activity shows, in metres; nil without an activity.
    public var shownDistance: Double? { activity?.shownDistance }

    /// The newest valid sample's rate while the sensor is live, for a person watching (the status
    /// block): not the number the phone shows, which moves only when worth an update.
    public var newestRate: Int? { sensorLive ? recent.newest : nil }

    /// Valid samples arrive (false before the first, and from a loss until the next).
    public var isSensorLive: Bool { sensorLive }

    /// A valid sample has arrived at some point: a sensor not live since is lost, not still awaited.
    public var hasHadSample: Bool { lastValidSample != nil }

    /// When the engine next needs `tick(at:)` if no input arrives first; nil when only input can change anything.
    /// Kept up to date by every change (`receive`, `tick`): drivers read it before every event.
    public private(set) var nextDeadline: Timestamp?

    /// `nextDeadline` leaving out the silence timeout: for a live driver whose source says
    /// itself, no later than the engine's silence timeout, that values stopped (a link's watchdog
    /// ending in `.disconnected`). That deadline moves with every sample, so a timer set for it wakes
    /// once per timeout while samples flow; any event runs it at its own time, so updates stay the same.
    public private(set) var nextWakeDeadlineBesideSilence: Timestamp?

    /// Mutating, though it only reads the rest: a non-mutating call from the mutating paths copied the
    /// whole engine (~450 bytes) each time. The readers of `activity` below are mutating for a like
    /// reason: a non-mutating read of one of its fields copies the whole optional record (~170 bytes,
    /// a memcpy) to find out whether it is there; a mutating one reads it in place.
    mutating func refreshNextDeadline() {
        (nextDeadline, nextWakeDeadlineBesideSilence) = earliestDeadlines()
    }

    /// The earliest deadline, and the earliest that is not the silence timeout.
    @inline(__always)
    mutating func earliestDeadlines() -> (any: Timestamp?, besideSilence: Timestamp?) {
        guard !finished else { return (nil, nil) }
        // Plain integers rather than optionals and closures: this runs once per sample.
        let notBefore = now?.microsecondsSinceUnixEpoch ?? .min
        var earliest: Int64 = .max
        func consider(_ candidate: Timestamp?) {
            guard let candidate = candidate?.microsecondsSinceUnixEpoch, candidate > notBefore, candidate < earliest else { return }
            earliest = candidate
        }
        var silence: Int64 = .max
        if sensorLive, let lastValidSample {
            if newestSampleLacksContact {
                consider(lastValidSample.adding(microseconds: durations.noContactTimeout))
            } else {
                let due = lastValidSample.microsecondsSinceUnixEpoch + durations.silenceTimeout
                if due > notBefore { silence = due }
            }
        }
        if let deadlines = activityDeadlines {
            consider(deadlines.timeLimit)
            consider(deadlines.refresh)
            if !sensorLive { consider(lastValidSample?.adding(microseconds: durations.giveUpInterval)) }
            // A change waiting: for the floor, a token, the patience, whichever comes next (each wake
            // looks again; the patience itself may lift once the bucket refills).
            if excursion != nil || distanceBehind {
                consider(deadlines.floor)
                if let routine, let now { consider(routine.whenAffordable(after: now)) }
                if let excursion, excursion.isSuspect(budgetShort: budgetShort) {
                    consider(excursion.since.adding(microseconds: durations.artefactPatience))
                }
            }
        }
        func timestamp(_ micros: Int64) -> Timestamp? { micros == .max ? nil : Timestamp(microsecondsSinceUnixEpoch: micros) }
        return (timestamp(min(earliest, silence)), timestamp(earliest))
    }

    /// Handles every deadline up to and including `time`, each at its own time.
    public mutating func tick(at time: Timestamp) -> [ActivityUpdate] {
        defer { refreshNextDeadline() }
        var updates: [ActivityUpdate] = []
        advance(before: time, into: &updates)
        if let deadline = nextDeadline, deadline <= time { evaluate(at: deadline, into: &updates) }
        if now.map({ $0 < time }) ?? true { now = time }
        return updates
    }

    /// Applies one input at `time` (after any earlier deadlines). Times never go back: an earlier
    /// time counts as the latest one seen. Throws only when a new label would not fit ActivityKit's 4 KB.
    public mutating func receive(_ input: EngineInput, at time: Timestamp) throws(LiveStateError) -> [ActivityUpdate] {
        // One array threaded through every rule, usually left empty: no allocation per sample.
        var updates: [ActivityUpdate] = []
        try receive(input, at: time, into: &updates)
        return updates
    }

    /// `receive(_:at:)` appending to the caller's array, for a feed handling events in a tight loop:
    /// the array returned for each sample, nearly always empty, cost a release and a check to append it.
    /// Should it throw, the updates of deadlines before `time` are appended already.
    mutating func receive(_ input: EngineInput, at time: Timestamp, into updates: inout [ActivityUpdate]) throws(LiveStateError) {
        defer { refreshNextDeadline() }
        advance(before: time, into: &updates)
        let time = max(time, now ?? time)
        now = time
        guard !finished else { return }
        switch input {
        case let .sample(rate, _) where input.isValidSample:
            lastValidSample = time
            newestSampleLacksContact = false
            recent.add(rate: rate, at: time)
            if !sensorLive {
                sensorLive = true
                routine?.startFilling(at: time)
                if hasActivity { // a return, shown at once; the first sample of an activity is its start
                    updates.append(publish(.update, .sensorBack, at: time, damped: flaps.back(at: time)))
                }
            }
            if !hasActivity { updates.append(startActivity(at: time)) }
            noteExcursion(newest: rate, at: time)
        case .sample:
            newestSampleLacksContact = true
        case .connected:
            break // only a valid sample proves the sensor is back
        case .disconnected:
            if sensorLive { loseSensor(at: time, into: &updates) }
        case let .distance(meters):
            // Before the start and while paused nothing counts: the workout's distance is the
            // activity's own. A sensor's nonsense (negative, NaN) is never added.
            guard hasActivity, activity?.pausedAt == nil, meters.isFinite, meters > 0 else { break }
            activity?.distance += meters
        case .pause:
            guard var record = activity, record.pausedAt == nil else { break }
            record.pausedAt = time
            activity = record
            updates.append(publish(.update, .paused, at: time))
        case .resume:
            guard var record = activity, let pausedAt = record.pausedAt else { break }
            record.timerLowerBound = record.timerLowerBound.adding(microseconds:
                time.microsecondsSinceUnixEpoch - pausedAt.microsecondsSinceUnixEpoch)
            record.pausedAt = nil
            activity = record
            updates.append(publish(.update, .resumed, at: time))
        case let .label(text):
            guard text != label else { break }
            try Self.checkFits(workoutName: settings.workoutName, label: text)
            label = text
            guard hasActivity else { break }
            activity?.label = text
            updates.append(publish(.update, .label, at: time))
        case let .stop(cause):
            if hasActivity { updates.append(end(cause, at: time, frozenAt: time)) }
            finished = true
            return
        }
        evaluate(at: time, into: &updates)
    }
}
