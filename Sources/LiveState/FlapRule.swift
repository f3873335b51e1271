import Sensors

/// Which losses and returns of the strap are worth waking the phone for (`CadencePolicy.flapWindow`
/// and `flapSettle`). A strap with a flaky contact drops out and comes back every minute or two; at
/// priority 10 each time, that is a Lock Screen lighting up for nothing and the APNs budget gone.
/// The loss is always said at once (heart rate absent is the honest state); only its urgency, and
/// how soon a return that may not last is shown, are damped.
struct FlapRule: Sendable {
    private let window: Int64
    private let settle: Int64
    /// When the sensor was last declared lost, and when it last came back (its first valid sample).
    private var lostAt: Int64?
    private var backAt: Int64?
    /// The current loss came within the window of the return before it: the strap is flapping.
    private var repeatedLoss = false

    init(_ policy: CadencePolicy) {
        func micros(_ seconds: Double) -> Int64 { Int64((seconds * Double(Timestamp.microsecondsPerSecond)).rounded()) }
        window = micros(policy.flapWindow)
        settle = micros(policy.flapSettle)
    }

    /// The sensor is lost at `time`. True: its sensor-lost goes at priority 5, because the strap came
    /// back less than the window ago and is losing contact again.
    mutating func lost(at time: Timestamp) -> Bool {
        let now = time.microsecondsSinceUnixEpoch
        lostAt = now
        repeatedLoss = backAt.map { now - $0 < window } ?? false
        return repeatedLoss
    }

    /// The sensor is back at `time`. `damped`: its sensor-back goes at priority 5 (it came back less than
    /// the window after the loss, or that loss was a repeated one). `holdUntil`: after a repeated loss,
    /// the sensor-back waits until the strap has stayed live for `flapSettle`; nil sends it now.
    mutating func back(at time: Timestamp) -> (damped: Bool, holdUntil: Timestamp?) {
        let now = time.microsecondsSinceUnixEpoch
        backAt = now
        let quick = lostAt.map { now - $0 < window } ?? false
        let hold = repeatedLoss && settle > 0 ? time.adding(microseconds: settle) : nil
        return (quick || repeatedLoss, hold)
    }
}
