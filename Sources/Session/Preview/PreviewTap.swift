import LiveState
import LiveView
import Sensors
import Synchronization

/// One session's way into the `PreviewHub`: its `SinkSet` hands it every update it hands its sinks
/// (the same `EncodedUpdate`, its line encoded once for all), with the sinks' counters after them.
final class PreviewTap: Sendable {
    let strap: String
    private unowned let hub: PreviewHub
    private let zoneBoundaries: [Int]
    private let clock: SessionClock
    /// Asks the session, on its queue, for its sinks' counters now (`SinkSet.refreshPreview`).
    let refreshSinks: @Sendable () -> Void
    /// The activity last published and the sinks message last sent for it: an unchanged report
    /// is not sent again.
    private let last = Mutex<(activity: String?, sinks: [UInt8])>((nil, []))

    init(hub: PreviewHub, strap: String, zoneBoundaries: [Int], clock: SessionClock, refreshSinks: @escaping @Sendable () -> Void) {
        self.hub = hub
        self.strap = strap
        self.zoneBoundaries = zoneBoundaries
        self.clock = clock
        self.refreshSinks = refreshSinks
    }

    /// The session's time and speed now; nil for a trace clock before its first event.
    func clockNow() -> (now: Timestamp, speed: Double)? {
        clock.now().map { ($0, clock.speed) }
    }

    /// An update as its sinks got it, then what they did (on the session's queue). An update too
    /// large for the phone went to no sink and goes to no browser either.
    func publish(_ encoded: EncodedUpdate, sinks: [SinkReport]) {
        guard let message = try? PreviewMessages.update(encoded) else { return }
        let update = encoded.update
        last.withLock { $0.activity = update.activityID }
        hub.publish(update: update, message: message,
                    heartRate: PreviewMessages.heartRate(update, strap: strap, zoneBoundaries: zoneBoundaries), strap: strap)
        publish(sinks: sinks)
    }

    /// The sinks' counters for the activity last published, if they changed since last said.
    func publish(sinks: [SinkReport]) {
        let said: (activity: String, message: [UInt8])? = last.withLock { last in
            guard let activity = last.activity else { return nil }
            let message = PreviewMessages.sinks(activity: activity, strap: strap, sinks)
            guard message != last.sinks else { return nil }
            last.sinks = message
            return (activity, message)
        }
        if let said { hub.publish(sinks: said.message, of: said.activity) }
    }
}
