import Sensors

/// One activity's priority-10 pushes in the last hour: at most `perHour` in any 60-minute window,
/// start and end included. APNs throttles Live Activity pushes at priority 10 past an hourly budget
/// it does not disclose; spending it on a flaky strap would leave none for the end.
struct UrgencyBudget: Sendable {
    /// The window APNs' budget is counted over.
    static let window: Int64 = 3600 * Timestamp.microsecondsPerSecond

    private let perHour: Int
    /// Times of the priority-10 pushes still inside the window, oldest first.
    private var urgentTimes: [Int64] = []

    init(perHour: Int) { self.perHour = perHour }

    /// The priority of an update at `time`, counting it when it is 10. Start and end are always 10;
    /// content an update would push at 10 by its reason gets 10 only while one slot stays free for
    /// the end (so the end never breaks the budget), and only if `damped` (the flap rule) is false.
    mutating func priority(_ event: ActivityUpdate.Event, _ reason: UpdateReason, at time: Timestamp, damped: Bool) -> Int {
        let now = time.microsecondsSinceUnixEpoch
        if let first = urgentTimes.firstIndex(where: { $0 > now - Self.window }) {
            urgentTimes.removeFirst(first)
        } else {
            urgentTimes.removeAll()
        }
        let lifecycle = event != .update
        guard lifecycle || (reason.isImmediate && !damped && urgentTimes.count < perHour - 1) else {
            return ActivityUpdate.normalPriority
        }
        urgentTimes.append(now)
        return ActivityUpdate.immediatePriority
    }
}
