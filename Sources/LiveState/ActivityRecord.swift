import FoundationEssentials
import Sensors

/// One running Live Activity: its identity, timer, label and what the phone was last told.
struct ActivityRecord: Sendable {
    let id: String
    let start: Timestamp
    let attributes: WorkoutActivityAttributes
    /// start, moved later by each completed pause.
    var timerLowerBound: Timestamp
    var pausedAt: Timestamp?
    var label: String
    private(set) var sequence = 0
    /// The rate the phone shows now (nil: absent, sensor lost).
    private(set) var publishedRate: Int?
    /// Metres covered in this activity, as the distance sensor reported them (not rounded).
    var distance: Double = 0
    /// The distance the phone shows now.
    private(set) var publishedDistance: Double = 0

    /// The distance as shown: to 0.1 m, the finest unit a foot pod reports, so sums of wheel
    /// circumferences print as 209.6 rather than 209.60000000000002.
    /// Without a distance sensor it stays 0, and the engine asks on every sample: no call into libm then.
    var shownDistance: Double { distance == 0 ? 0 : (distance * 10).rounded() / 10 }
    private(set) var lastUpdate: Timestamp
    private(set) var staleDate: Timestamp
    /// Its priority-10 pushes of the last hour.
    private var urgency: UrgencyBudget

    init(id: String, start: Timestamp, workoutName: String, label: String, urgentPerHour: Int) {
        self.id = id
        self.start = start
        self.attributes = WorkoutActivityAttributes(workoutName: workoutName)
        self.timerLowerBound = start
        self.label = label
        self.lastUpdate = start
        self.staleDate = start
        self.urgency = UrgencyBudget(perHour: urgentPerHour)
    }

    /// The content state as of now, with `rate` shown (nil: absent) and the timer frozen at `frozenAt` if given.
    func contentState(rate: Int?, timerLimit: Double, frozenAt: Timestamp? = nil) -> WorkoutActivityAttributes.ContentState {
        let upper = start.adding(seconds: timerLimit)
        return .init(
            timerRange: ActivityKitEncoding.date(timerLowerBound)...ActivityKitEncoding.date(upper),
            pausedAt: (pausedAt ?? frozenAt).map(ActivityKitEncoding.date),
            heartRate: rate,
            distanceMeters: shownDistance,
            intervalLabel: label
        )
    }

    /// Records and returns the next update of this activity. `damped`: the flap rule wants it at
    /// priority 5 whatever its reason.
    mutating func update(
        _ event: ActivityUpdate.Event, reason: UpdateReason, at time: Timestamp, rate: Int?,
        policy: CadencePolicy, frozenAt: Timestamp? = nil, damped: Bool = false
    ) -> ActivityUpdate {
        sequence += 1
        publishedRate = rate
        publishedDistance = shownDistance
        lastUpdate = time
        staleDate = time.adding(seconds: policy.staleWindow)
        return ActivityUpdate(
            event: event, activityID: id, sequence: sequence, timestamp: time, staleDate: staleDate,
            dismissalDate: event == .end ? time.adding(seconds: policy.dismissalDelay) : nil,
            priority: urgency.priority(event, reason, at: time, damped: damped),
            reason: reason, attributes: attributes,
            contentState: contentState(rate: rate, timerLimit: policy.activityTimeLimit, frozenAt: frozenAt)
        )
    }

    /// `<prefix>-<yyyyMMddTHHmmssZ of start>-<n>`: readable, unique per engine, identical in every replay.
    static func identifier(prefix: String, start: Timestamp, number: Int) -> String {
        let parts = start.utcFields // not Calendar: its first use loads ICU's data for good
        func digits(_ value: Int64, _ width: Int) -> String {
            let text = String(value)
            return String(repeating: "0", count: max(0, width - text.count)) + text
        }
        let stamp = digits(parts.year, 4) + digits(parts.month, 2) + digits(parts.day, 2)
            + "T" + digits(parts.hour, 2) + digits(parts.minute, 2) + digits(parts.second, 2) + "Z"
        return "\(prefix)-\(stamp)-\(number)"
    }
}
