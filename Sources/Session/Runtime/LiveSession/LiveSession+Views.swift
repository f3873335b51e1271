import Forwarding
import LiveState
import LiveView
import Sensors

extension LiveSession {
    /// The session's sensors as the terminal's status block shows them: the strap (its newest rate,
    /// link, last update and next deadline), then the distance sensor beside it, if any. `strap`
    /// and `distanceSensor` are how they are named (`ctl --strap`, the selector; a replayed trace's
    /// distance sensor has no name of its own). Ages and the deadline are from now on the session's
    /// clock (a paced replay's trace time).
    func sensorStatus(strap: String, distanceSensor: String?) -> [SensorStatus] {
        queue.sync {
            let now = clock.now() ?? lastEventTime
            let engine = feed.engine
            let link: SensorStatus.Link = switch phase {
            case .over: .stopped
            case .notStarted: .waiting
            case .running: engine.isSensorLive ? .live : engine.hasHadSample ? .lost : .waiting
            }
            let last = journal.lastUpdate
            let hasDistanceSensor = distanceSensor != nil || feed.distanceSensor != nil
            let distance = hasDistanceSensor ? engine.shownDistance ?? last?.contentState.distanceMeters : nil
            var strapRow = SensorStatus(name: strap, role: .strap, link: link, heartRate: engine.newestRate, distanceMeters: distance)
            if let last {
                strapRow.lastUpdate = .init(sequence: last.sequence, reason: last.reason.rawValue,
                                            age: now.map { $0.seconds(since: last.timestamp) } ?? 0)
            }
            if running, let due = feed.nextDeadline, let now { strapRow.nextDeadlineIn = due.seconds(since: now) }
            guard hasDistanceSensor else { return [strapRow] }
            let distanceLink: SensorStatus.Link = switch (phase, feed.distanceSensor) {
            case (.over, _): .stopped
            case (_, .live?): .live
            case (_, .lost?): .lost
            case (_, nil): .waiting
            }
            return [strapRow, SensorStatus(name: distanceSensor ?? "distance sensor", role: .distance, link: distanceLink, distanceMeters: distance)]
        }
    }
}

extension LiveSession {
    /// The strap's broadcast channel phones should join now (`ChannelRegistry.current`), if it has one.
    package func broadcastChannel() -> ChannelRegistry.Channel? {
        queue.sync { sinks.channels.snapshot.current }
    }

    /// From now on every update of this session also goes to `hub` (the preview's event streams),
    /// as `strap`; call before `start()`.
    public func showPreview(in hub: PreviewHub, as strap: String) {
        queue.sync {
            sinks.preview = hub.tap(strap: strap, zoneBoundaries: feed.engine.policy.zoneBoundaries, clock: clock) { [weak self] in
                guard let self else { return }
                queue.async { self.sinks.refreshPreview() }
            }
        }
    }
}
