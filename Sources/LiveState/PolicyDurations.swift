import Sensors

/// The cadence policy's durations as whole microseconds, for deadline arithmetic on the per-sample
/// path (integer adds instead of a floating-point multiply and round each time).
struct PolicyDurations: Sendable {
    let silenceTimeout: Int64
    let noContactTimeout: Int64
    /// From an activity's start to when we end it, ahead of ActivityKit's own limit.
    let activityEndsAfter: Int64
    let refreshLead: Int64
    let giveUpInterval: Int64
    let minimumInterval: Int64
    let artefactPatience: Int64

    init(_ policy: CadencePolicy) {
        func micros(_ seconds: Double) -> Int64 {
            Int64((seconds * Double(Timestamp.microsecondsPerSecond)).rounded())
        }
        silenceTimeout = micros(policy.silenceTimeout)
        noContactTimeout = micros(policy.noContactTimeout)
        activityEndsAfter = micros(policy.activityTimeLimit - policy.timeLimitMargin)
        refreshLead = micros(policy.refreshLead)
        giveUpInterval = micros(policy.giveUpInterval)
        minimumInterval = micros(policy.minimumInterval)
        artefactPatience = micros(policy.artefactPatience)
    }
}
