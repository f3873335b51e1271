import Forwarding
import Sensors
import LiveState

/// What a session is doing, for `ctl status` and logs: the activity the phone shows (if any) and
/// what each sink did.
package struct SessionStatus: Sendable, Equatable {
    /// False once the session has stopped.
    package var running: Bool
    /// The newest update of the activity still running; nil when none runs.
    package var activity: ActivityUpdate?
    /// The newest update sent, an end included: what the session shows once its activity ended.
    package var latest: ActivityUpdate? = nil
    /// The push token of the activity shown (running, else the latest), where an APNs sink routes
    /// by tokens registered at run time.
    package var pushToken: TokenStatus? = nil
    /// The broadcast channel the activity shown is published on, if an APNs sink publishes on one.
    package var channel: String? = nil
    /// The distance sensor beside the strap; nil when none has been heard from.
    package var distanceSensor: DistanceSensorState? = nil
    /// What it said it offers at connect (a fitness machine's features).
    package var distanceSensorOffers: String? = nil
    /// `--heart-rate-from`, and whether the machine's rate is what the activity shows now.
    package var heartRateSource: HeartRateSource = .strap
    package var heartRateFromMachineNow = false
    /// Updates the engine sent at priority 10, and those urgent by their reason (sensor lost or back)
    /// that it sent at 5 (push budget spent, or a flapping sensor), over the session so far.
    package var urgentPushes = 0
    package var demotions = 0
    /// `(sink name, counters)` in the order the sinks were given.
    package var sinks: [SinkStatus]

    /// The running activity, else the one that ended last; nil before the first start.
    package var activityState: ActivityState? {
        (activity ?? latest).map { update in
            var state = ActivityState(update)
            state.pushToken = pushToken
            state.channel = channel
            return state
        }
    }

    package struct SinkStatus: Sendable, Equatable {
        package var name: String
        package var summary: String
    }

    /// One line: `running, activity X #7 (changed, 142 bpm)[, push token registered]; priority 10: 3 sent,
    /// 0 demoted; sink stdout: sent 7, …`; with a distance sensor, `(changed, 142 bpm, 1234.5 m); distance
    /// sensor live (offers total distance, heart rate); heart rate from the machine while no strap (now); …`.
    package var line: String {
        var text = running ? "running" : "stopped"
        if let activity {
            let rate = activity.contentState.heartRate.map { "\($0) bpm" } ?? "no heart rate"
            let paused = activity.contentState.pausedAt != nil && activity.event != .end ? ", paused" : ""
            let distance = distanceSensor == nil ? "" : ", \(activity.contentState.distanceMeters) m"
            text += ", activity \(activity.activityID) #\(activity.sequence) (\(activity.reason), \(rate)\(distance)\(paused))"
            if let pushToken { text += pushToken == .pending ? ", waiting for its push token" : ", push token \(pushToken.rawValue)" }
        } else {
            text += ", no activity"
        }
        if let distanceSensor {
            text += "; distance sensor \(distanceSensor.rawValue)"
            if let distanceSensorOffers { text += " (offers \(distanceSensorOffers))" }
        }
        if heartRateSource == .machine {
            text += "; heart rate from the machine while no strap (\(heartRateFromMachineNow ? "now" : "not now"))"
        }
        text += "; priority 10: \(urgentPushes) sent, \(demotions) demoted"
        for sink in sinks { text += "; sink \(sink.name): \(sink.summary)" }
        return text
    }
}
