import BlueZ
import Forwarding
import LiveState
import Sensors

/// What a session counted, copied on its queue when `/metrics` or `/readyz` asks: the feed's tally,
/// the updates it sent, the engine's priority-10 budget and each sink's counters. Nothing here is
/// counted for the asking; the text is made from this copy off the session's queue.
package struct SessionMetrics: Sendable {
    package var running: Bool
    package var tally: SensorTally
    /// Updates sent, by reason and priority.
    package var updates: [UpdateKind: Int]
    package var urgentPushes: Int
    package var demotions: Int
    package var sinks: [SinkSnapshot]
    /// Seconds from the strap's newest valid sample to now on the session's clock (trace time in a
    /// replay); nil before the first.
    package var secondsSinceValidSample: Double?

    package struct UpdateKind: Sendable, Hashable {
        package var reason: String
        package var priority: Int
    }
}

/// One sink as metrics and readiness see it.
package struct SinkSnapshot: Sendable {
    package var kind: String
    package var counters: SinkCounters
    /// Deliveries waiting in its queue.
    package var waiting: Int
    package var spoolBytes: Int
    /// Why it stopped for good (its output failed, credentials refused); nil while it works.
    package var halted: String?
    /// A Bluetooth peripheral's centrals and notifications (ble-heart-rate).
    package var peripheral: BLEPeripheral.Snapshot? = nil
}

extension LiveSession {
    package func metrics() -> SessionMetrics {
        queue.sync {
            let tally = feed.tally
            let age = tally.lastValidSample.flatMap { sample in (clock.now() ?? lastEventTime).map { $0.seconds(since: sample) } }
            return SessionMetrics(running: running, tally: tally, updates: journal.updateCounts,
                                  urgentPushes: feed.engine.urgentPushes, demotions: feed.engine.demotions,
                                  sinks: sinks.snapshots, secondsSinceValidSample: age.map { max(0, $0) })
        }
    }
}
