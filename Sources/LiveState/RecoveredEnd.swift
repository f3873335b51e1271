import Sensors

extension ActivityUpdate {
    /// The end a later run sends for an activity whose last known update is `self` (the run that owned
    /// it died without ending it): the next sequence number, `end:recovered` at priority 10, heart rate
    /// absent (nobody knows it now), the timer frozen at the last update (the last moment the bridge
    /// is known to have been alive) unless the workout was paused, and the usual dismissal delay.
    /// Pure: `time` is the recovering run's clock; `after`: the highest sequence the activity may have
    /// used, when later updates than `self` may have gone out (its own sequence otherwise).
    public func recoveredEnd(at time: Timestamp, policy: CadencePolicy, after: Int? = nil) -> ActivityUpdate {
        var state = contentState
        state.heartRate = nil
        state.pausedAt = state.pausedAt ?? ActivityKitEncoding.date(timestamp)
        return ActivityUpdate(
            event: .end, activityID: activityID, sequence: (after ?? sequence) + 1, timestamp: time,
            staleDate: time.adding(seconds: policy.staleWindow), dismissalDate: time.adding(seconds: policy.dismissalDelay),
            priority: ActivityUpdate.immediatePriority, reason: .end(.recovered), attributes: attributes, contentState: state
        )
    }
}
