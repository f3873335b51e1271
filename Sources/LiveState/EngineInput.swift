import Sensors

/// What the engine hears about, each with the time it happened (passed separately).
public enum EngineInput: Sendable, Hashable {
    /// A parsed 0x2A37 measurement. Rate 0 or contact "not detected" means the strap cannot measure.
    case sample(beatsPerMinute: Int, contact: SensorContact)
    case connected
    case disconnected
    /// Metres a distance sensor (foot pod, bike sensor) says were covered since its previous
    /// measurement. Counted only while an activity runs and is not paused.
    case distance(meters: Double)
    /// Control: the workout is paused or resumed (moves the timer), or its label changes.
    case pause
    case resume
    case label(String)
    /// The source ended (`stopped`: the end of a trace, a person or a signal stopping the bridge) or
    /// broke off (`traceError`): end the activity with its final state, saying which.
    case stop(EndCause)
}

extension EngineInput {
    /// Whether a sample carries a rate a person can read.
    var isValidSample: Bool {
        guard case let .sample(rate, contact) = self else { return false }
        return rate > 0 && contact != .notDetected
    }
}
