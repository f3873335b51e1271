import Sensors

/// `--heart-rate-from machine`: the distance sensor's own heart rate (a treadmill's grip sensors, a
/// bike's paired strap) feeds the activity while no strap is connected; the strap wins whenever its
/// link is up, and from its `connected` on its samples alone count. Decided from the events alone,
/// so a replay of the trace decides it the same way. Pure, like the engine.
struct MachineHeartRate: Sendable {
    let source: HeartRateSource
    /// The strap's link is up (its `connected` came, its `disconnected` not yet).
    private var strapConnected = false
    /// The machine's rate is what the activity shows now.
    private(set) var feeding = false

    init(source: HeartRateSource) {
        self.source = source
    }

    /// One of the strap's events: its link's state decides who may speak.
    mutating func strap(_ kind: SensorEvent.Kind) {
        switch kind {
        case .connected:
            strapConnected = true
            feeding = false
        case .disconnected:
            strapConnected = false
        default:
            break
        }
    }

    /// What one of the distance sensor's events gives the engine as heart rate, if anything: its rate
    /// as a sample (a machine reports no skin contact), or, when its rate was shown and its link
    /// dropped, the loss.
    mutating func machine(_ kind: SensorEvent.Kind) -> EngineInput? {
        guard source == .machine, !strapConnected else { return nil }
        switch kind {
        case let .notification(characteristic, value):
            guard let sensorKind = SensorKind.measured(on: characteristic), sensorKind.contribution.givesDistance,
                  let rate = sensorKind.heartRate(in: value)
            else { return nil }
            feeding = true
            return .sample(beatsPerMinute: rate, contact: .unsupported)
        case .disconnected where !kind.isStopByBridge && feeding:
            feeding = false
            return .disconnected
        default:
            return nil
        }
    }
}
