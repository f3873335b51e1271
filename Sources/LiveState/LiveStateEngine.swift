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
    private let zones: HeartRateZones
    /// The policy's durations in whole microseconds, converted once: deadlines are computed per sample.
    private let durations: PolicyDurations

    private var now: Timestamp?
    private var window: RateWindow
    /// True from a valid sample until the sensor is declared lost.
    private var sensorLive = false
    private var lastValidSample: Timestamp?
    /// The newest sample said "no contact" (or rate 0): the shorter loss timeout applies.
    private var newestSampleLacksContact = false
    private var activity: ActivityRecord?
    /// The running activity's deadlines, set by `publish` and cleared by `end`: nil without an activity.
    /// The deadlines are looked for after every sample, and asking `activity` for its case is an
    /// outlined call (~12 instructions); the times change only when an update goes out.
    private var activityDeadlines: ActivityDeadlines?
    private var activitiesStarted = 0
    private var label: String
    /// After a stop (or the time limit without continuation): no more activities.
    private var finished = false
    /// Which losses and returns wake the phone.
    private var flaps: FlapRule
    /// `updatesPerHour`: nil without a limit.
    private var routine: RoutineBudget?

    /// Updates sent at priority 10, and those urgent by their reason but sent at 5
    /// (`ActivityUpdate.isDemoted`), over every activity so far: for `ctl status`.
    public private(set) var urgentPushes = 0
    public private(set) var demotions = 0

    public init(policy: CadencePolicy = CadencePolicy(), settings: ActivitySettings = ActivitySettings()) throws(LiveStateError) {
        self.policy = try policy.validated()
        self.settings = settings
        zones = HeartRateZones(boundaries: self.policy.zoneBoundaries, hysteresis: self.policy.zoneHysteresis)
        durations = PolicyDurations(self.policy)
        window = RateWindow(windowSeconds: self.policy.smoothingWindow)
        label = settings.intervalLabel
        flaps = FlapRule(self.policy)
        routine = self.policy.updatesPerHour > 0 ? RoutineBudget(perHour: self.policy.updatesPerHour) : nil
        try Self.checkFits(workoutName: settings.workoutName, label: label)
    }

    /// The distance the running activity shows, in metres; nil without an activity.
    public var shownDistance: Double? { activity?.shownDistance }

    /// When the engine next needs `tick(at:)` if no input arrives first; nil when only input can change anything.
    /// Kept up to date by every change (`receive`, `tick`): drivers read it before every event.
    public private(set) var nextDeadline: Timestamp?

    /// The deadline a live driver needs a timer for: `nextDeadline` leaving out the rate window's
    /// expiries. An expiry moves later with every sample (at 1 Hz it falls between two samples, at
    /// 50 Hz every 20 ms) and only lets the median drift; the next sample runs it at its own time
    /// before itself, and with no sample the silence timeout does. Updates stay the same as a replay's;
    /// only an expiry's update leaves later, by up to a sample's interval while samples flow.
    public private(set) var nextWakeDeadline: Timestamp?

    /// `nextWakeDeadline` leaving out the silence timeout too: for a live driver whose source says
    /// itself, no later than the engine's silence timeout, that values stopped (a link's watchdog
    /// ending in `.disconnected`). That deadline moves with every sample, so a timer set for it wakes
    /// once per timeout while samples flow; any event runs it at its own time, so updates stay the same.
    public private(set) var nextWakeDeadlineBesideSilence: Timestamp?

    /// Mutating, though it only reads the rest: a non-mutating call from the mutating paths copied the
    /// whole engine (~450 bytes) each time. The readers of `activity` below are mutating for a like
    /// reason: a non-mutating read of one of its fields copies the whole optional record (~170 bytes,
    /// a memcpy) to find out whether it is there; a mutating one reads it in place.
    private mutating func refreshNextDeadline() {
        (nextDeadline, nextWakeDeadline, nextWakeDeadlineBesideSilence) = earliestDeadlines()
    }

    /// The earliest deadline, the earliest that is not a rate window expiry, and the earliest that is
    /// neither an expiry nor the silence timeout.
    @inline(__always)
    private mutating func earliestDeadlines() -> (any: Timestamp?, wake: Timestamp?, besideSilence: Timestamp?) {
        guard !finished else { return (nil, nil, nil) }
        // Plain integers rather than optionals and closures: this runs once per sample.
        let notBefore = now?.microsecondsSinceUnixEpoch ?? .min
        var earliest: Int64 = .max
        func consider(_ candidate: Timestamp?) {
            guard let candidate = candidate?.microsecondsSinceUnixEpoch, candidate > notBefore, candidate < earliest else { return }
            earliest = candidate
        }
        var expiry: Int64 = .max
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
            if sensorLive, let next = window.nextExpiry?.microsecondsSinceUnixEpoch, next > notBefore { expiry = next }
            let floor = deadlines.floor
            if wantsChange {
                consider(floor)
            } else if let routine, let now, worthSending {
                consider(max(floor, routine.whenAffordable(size: changeSize, after: now)))
            }
        }
        func timestamp(_ micros: Int64) -> Timestamp? { micros == .max ? nil : Timestamp(microsecondsSinceUnixEpoch: micros) }
        return (timestamp(min(earliest, expiry, silence)), timestamp(min(earliest, silence)), timestamp(earliest))
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
        window.prune(at: time)
        guard !finished else { return }
        switch input {
        case let .sample(rate, _) where input.isValidSample:
            lastValidSample = time
            newestSampleLacksContact = false
            window.add(rate: rate, at: time)
            if !sensorLive {
                sensorLive = true
                if hasActivity { // a return, shown at once; the first sample of an activity is its start
                    updates.append(publish(.update, .sensorBack, at: time, damped: flaps.back(at: time)))
                }
            }
            if !hasActivity { updates.append(startActivity(at: time)) }
        case .sample:
            newestSampleLacksContact = true
        case .connected:
            break // only a valid sample proves the sensor is back
        case .disconnected:
            if sensorLive { loseSensor(at: time, into: &updates) }
        case let .distance(metres):
            // Before the start and while paused nothing counts: the workout's distance is the
            // activity's own. A sensor's nonsense (negative, NaN) is never added.
            guard hasActivity, activity?.pausedAt == nil, metres.isFinite, metres > 0 else { break }
            activity?.distance += metres
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

    // MARK: - Rules

    /// Runs the deadlines strictly before `time`, in order.
    private mutating func advance(before time: Timestamp, into updates: inout [ActivityUpdate]) {
        while let deadline = nextDeadline, deadline < time {
            evaluate(at: deadline, into: &updates)
            refreshNextDeadline()
        }
    }

    /// Everything due at `time`: time limit, loss, give-up, a change worth showing, a refresh.
    private mutating func evaluate(at time: Timestamp, into updates: inout [ActivityUpdate]) {
        now = time
        window.prune(at: time)
        if let timeLimit = activityDeadlines?.timeLimit, time >= timeLimit {
            updates.append(end(.timeLimit, at: time, frozenAt: time))
            if !policy.continueAfterTimeLimit {
                finished = true
                return
            }
            if sensorLive { updates.append(startActivity(at: time)) }
        }
        if sensorLive, let lastValidSample {
            let timeout = newestSampleLacksContact ? durations.noContactTimeout : durations.silenceTimeout
            if time >= lastValidSample.adding(microseconds: timeout) { loseSensor(at: time, into: &updates) }
        }
        if !sensorLive, hasActivity, let lastValidSample, time >= lastValidSample.adding(microseconds: durations.giveUpInterval) {
            updates.append(end(.sensorGone, at: time, frozenAt: lastValidSample))
        }
        // Read before anything changes them.
        guard let deadlines = activityDeadlines else { return }
        let floorPassed = time >= deadlines.floor
        if floorPassed, wantsChange {
            updates.append(publish(.update, .changed, at: time))
            routine?.spend(at: time)
        } else if floorPassed, time >= deadlines.refresh {
            updates.append(publish(.update, .refresh, at: time))
            routine?.spend(at: time)
        }
    }

    /// Whether an activity is running. A pattern match reads the optional in place; `activity != nil`
    /// copied the whole record on every sample.
    @inline(__always)
    private var hasActivity: Bool {
        if case .some = activity { return true }
        return false
    }

    /// A change worth sending now: worth it, and within the routine budget if there is one.
    @inline(__always) // called on the per-sample path: a call copied the whole engine
    private var wantsChange: Bool {
        mutating get {
            guard worthSending else { return false }
            guard let routine, let now else { return true }
            return routine.affords(size: changeSize, at: now)
        }
    }

    /// The displayed rate (as of the last prune) moved by the threshold, or into another zone, or the
    /// distance shown by the distance step, since the phone was last told (false without an activity:
    /// there is no phone to tell). The rate counts only while the sensor is live (the window is empty
    /// when lost); the distance goes on while the strap is lost.
    @inline(__always)
    private var worthSending: Bool {
        mutating get {
            guard case .some(let record) = activity else { return false }
            if record.shownDistance - record.publishedDistance >= policy.distanceLagBound(at: record.shownDistance) { return true }
            guard let displayed = window.displayedRate else { return false }
            guard let published = record.publishedRate else { return true }
            return abs(displayed - published) >= policy.changeThreshold || zones.crossed(from: published, to: displayed)
        }
    }

    /// How many steps worth an update the change spans (≥ 1 when `worthSending`): the rate's move over
    /// the threshold, a zone crossing as one, the distance's move over the distance step. What the
    /// routine budget weighs: a bigger change needs less of the bucket.
    private var changeSize: Double {
        mutating get {
            var size = 0.0
            if let shown = activity?.shownDistance, let published = activity?.publishedDistance {
                size = (shown - published) / policy.distanceLagBound(at: shown)
            }
            guard let displayed = window.displayedRate else { return max(size, 1) }
            guard let published = activity?.publishedRate else { return .infinity }
            size = max(size, Double(abs(displayed - published)) / Double(policy.changeThreshold))
            return max(size, 1)
        }
    }

    private mutating func loseSensor(at time: Timestamp, into updates: inout [ActivityUpdate]) {
        sensorLive = false
        window.clear()
        let damped = flaps.lost(at: time)
        guard hasActivity else { return }
        updates.append(publish(.update, .sensorLost, at: time, damped: damped))
    }

    private mutating func startActivity(at time: Timestamp) -> ActivityUpdate {
        activitiesStarted += 1
        let id = ActivityRecord.identifier(prefix: settings.activityIDPrefix, start: time, number: activitiesStarted)
        activity = ActivityRecord(id: id, start: time, workoutName: settings.workoutName, label: label,
                                  urgentPerHour: policy.urgentPerHour)
        return publish(.start, .start, at: time)
    }

    private mutating func end(_ cause: EndCause, at time: Timestamp, frozenAt: Timestamp) -> ActivityUpdate {
        let update = publish(.end, .end(cause), at: time, frozenAt: frozenAt)
        activity = nil
        activityDeadlines = nil
        return update
    }

    /// An update of the current activity showing the displayed rate (absent while the sensor is lost),
    /// counted for `ctl status`. `damped`: the flap rule's priority 5.
    private mutating func publish(
        _ event: ActivityUpdate.Event, _ reason: UpdateReason, at time: Timestamp, frozenAt: Timestamp? = nil,
        damped: Bool = false
    ) -> ActivityUpdate {
        let rate = sensorLive ? window.displayedRate : nil
        let update = activity!.update(event, reason: reason, at: time, rate: rate, policy: policy, frozenAt: frozenAt, damped: damped)
        activityDeadlines = ActivityDeadlines(activity!, durations)
        if update.priority == ActivityUpdate.immediatePriority { urgentPushes += 1 }
        if update.isDemoted { demotions += 1 }
        return update
    }

    /// When the running activity reaches the time limit, its next refresh is due, and a routine
    /// update may go at the earliest (`minimumInterval` after the last).
    private struct ActivityDeadlines: Sendable {
        let timeLimit: Timestamp
        let refresh: Timestamp
        let floor: Timestamp

        init(_ record: ActivityRecord, _ durations: PolicyDurations) {
            timeLimit = record.start.adding(microseconds: durations.activityEndsAfter)
            refresh = record.staleDate.adding(microseconds: -durations.refreshLead)
            floor = record.lastUpdate.adding(microseconds: durations.minimumInterval)
        }
    }

    /// Refuses a name and label whose largest possible state would not fit ActivityKit's limit.
    private static func checkFits(workoutName: String, label: String) throws(LiveStateError) {
        let widest = Timestamp(unixSeconds: 4_000_000_000)
        let date = ActivityKitEncoding.date(widest.adding(seconds: 0.123457))
        _ = try ActivityKitEncoding.payload(
            attributes: WorkoutActivityAttributes(workoutName: workoutName),
            contentState: .init(timerRange: date...date, pausedAt: date, heartRate: 65_535,
                                distanceMeters: 9_999_999.9, intervalLabel: label)
        )
    }
}
