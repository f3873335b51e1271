import Sensors

/// The engine's rules: when a change, a refresh, a sensor-lost or an end goes out, and what each says.
extension LiveStateEngine {

    /// Runs the deadlines strictly before `time`, in order.
    mutating func advance(before time: Timestamp, into updates: inout [ActivityUpdate]) {
        while let deadline = nextDeadline, deadline < time {
            evaluate(at: deadline, into: &updates)
            refreshNextDeadline()
        }
    }

    /// Everything due at `time`: time limit, loss, give-up, a change worth showing, a refresh.
    mutating func evaluate(at time: Timestamp, into updates: inout [ActivityUpdate]) {
        now = time
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
        if floorPassed, changeDue(at: time) {
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
    var hasActivity: Bool {
        if case .some = activity { return true }
        return false
    }

    /// Whether the newest sample (at `time`) starts, ends or continues an excursion from the number
    /// shown. Nothing shown while live (an activity started without a rate) counts as out of band.
    @inline(__always)
    mutating func noteExcursion(newest: Int, at time: Timestamp) {
        guard case .some(let record) = activity else { return }
        guard let shown = record.publishedRate else {
            excursion = excursion ?? Excursion(since: time, suddenDrop: false, suddenJump: false)
            return
        }
        excursion = Excursion.of(newest: newest, previous: recent.beforeNewest ?? newest, shown: shown, at: time,
                                 ongoing: excursion, policy: policy, zones: zones)
    }

    /// The phone's distance is behind by more than the lag bound (false without an activity).
    var distanceBehind: Bool {
        mutating get {
            guard case .some(let record) = activity else { return false }
            return record.shownDistance - record.publishedDistance >= policy.distanceLagBound(at: record.shownDistance)
        }
    }

    /// The routine budget holds fewer than two tokens: a sudden jump then waits out the patience too.
    var budgetShort: Bool {
        guard let routine, let now else { return false }
        return routine.tokens(at: now) < 2
    }

    /// A change worth sending at `time` (the floor aside): the rate out of band and not an artefact
    /// being waited out, or the distance behind; within the routine budget if there is one.
    @inline(__always)
    mutating func changeDue(at time: Timestamp) -> Bool {
        var due = distanceBehind
        if !due, let excursion {
            due = !(excursion.isSuspect(budgetShort: budgetShort) && time < excursion.since.adding(microseconds: durations.artefactPatience))
        }
        guard due else { return false }
        return routine?.affordsChange(at: time) ?? true
    }

    mutating func loseSensor(at time: Timestamp, into updates: inout [ActivityUpdate]) {
        sensorLive = false
        recent.clear()
        excursion = nil
        routine?.stopFilling(at: time)
        let damped = flaps.lost(at: time)
        guard hasActivity else { return }
        updates.append(publish(.update, .sensorLost, at: time, damped: damped))
    }

    mutating func startActivity(at time: Timestamp) -> ActivityUpdate {
        activitiesStarted += 1
        let id = ActivityRecord.identifier(prefix: settings.activityIDPrefix, start: time, number: activitiesStarted)
        activity = ActivityRecord(id: id, start: time, workoutName: settings.workoutName, label: label,
                                  urgentPerHour: policy.urgentPerHour)
        return publish(.start, .start, at: time)
    }

    mutating func end(_ cause: EndCause, at time: Timestamp, frozenAt: Timestamp) -> ActivityUpdate {
        let update = publish(.end, .end(cause), at: time, frozenAt: frozenAt)
        activity = nil
        activityDeadlines = nil
        return update
    }

    /// An update of the current activity showing the chosen rate (absent while the sensor is lost),
    /// counted for `ctl status`. `damped`: the flap rule's priority 5. Any update re-centres the
    /// number shown, so none leaves an excursion behind.
    mutating func publish(
        _ event: ActivityUpdate.Event, _ reason: UpdateReason, at time: Timestamp, frozenAt: Timestamp? = nil,
        damped: Bool = false
    ) -> ActivityUpdate {
        let rate = sensorLive
            ? recent.chosenRate(trendWindow: policy.trendWindow, horizon: policy.trendHorizon, margin: policy.changeThreshold - 1)
            : nil
        excursion = nil
        let update = activity!.update(event, reason: reason, at: time, rate: rate, policy: policy, frozenAt: frozenAt, damped: damped)
        activityDeadlines = ActivityDeadlines(activity!, durations)
        if update.priority == ActivityUpdate.immediatePriority { urgentPushes += 1 }
        if update.isDemoted { demotions += 1 }
        return update
    }

    /// When the running activity reaches the time limit, its next refresh is due, and a routine
    /// update may go at the earliest (`minimumInterval` after the last).
    struct ActivityDeadlines: Sendable {
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
    static func checkFits(workoutName: String, label: String) throws(LiveStateError) {
        let widest = Timestamp(unixSeconds: 4_000_000_000)
        let date = ActivityKitEncoding.date(widest.adding(seconds: 0.123457))
        _ = try ActivityKitEncoding.payload(
            attributes: WorkoutActivityAttributes(workoutName: workoutName),
            contentState: .init(timerRange: date...date, pausedAt: date, heartRate: 65_535,
                                distanceMeters: 9_999_999.9, intervalLabel: label)
        )
    }
}
