import Sensors

/// Which losses and returns of the strap are worth waking the phone for (`CadencePolicy.flapWindow`).
/// A strap with a flaky contact drops out and comes back every minute or two; at priority 10 each
/// time, that is a Lock Screen lighting up for nothing and the APNs budget gone. Flapping costs
/// priority, never truth: every loss is said when it happens and every return shows the number at
/// once; only their urgency is damped.
struct FlapRule: Sendable {
    private let window: Int64
    /// When the sensor was last declared lost, and when it last came back (its first valid sample).
    private var lostAt: Int64?
    private var backAt: Int64?
    /// The current loss came within the window of the return before it: the strap is flapping.
    private var repeatedLoss = false

    init(_ policy: CadencePolicy) {
        window = Int64((policy.flapWindow * Double(Timestamp.microsecondsPerSecond)).rounded())
    }

    /// The sensor is lost at `time`. True: its sensor-lost goes at priority 5, because the strap came
    /// back less than the window ago and is losing contact again.
    mutating func lost(at time: Timestamp) -> Bool {
        let now = time.microsecondsSinceUnixEpoch
        lostAt = now
        repeatedLoss = backAt.map { now - $0 < window } ?? false
        return repeatedLoss
    }

    /// The sensor is back at `time`. True: its sensor-back goes at priority 5 (it came back less than
    /// the window after the loss, or that loss was a repeated one).
    mutating func back(at time: Timestamp) -> Bool {
        let now = time.microsecondsSinceUnixEpoch
        backAt = now
        let quick = lostAt.map { now - $0 < window } ?? false
        return quick || repeatedLoss
    }
}
