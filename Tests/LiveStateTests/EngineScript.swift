import Sensors
import LiveState

/// Drives an engine through timed inputs (an injected clock: every time is given) and describes
/// each update compactly, so rule tests read as tables: "30 update sensor-lost - p10".
struct EngineScript {
    static let origin = Timestamp(unixSeconds: 1_704_088_800) // 2024-01-01T06:00:00Z

    var steps: [(seconds: Double, input: EngineInput?)] = []

    /// One valid sample per `every` seconds in [from, to).
    mutating func samples(_ rate: Int, from: Double, to: Double, every: Double = 1, contact: SensorContact = .detected) {
        var time = from
        while time < to {
            steps.append((time, .sample(beatsPerMinute: rate, contact: contact)))
            time += every
        }
    }

    mutating func add(_ input: EngineInput, at seconds: Double) { steps.append((seconds, input)) }

    /// Wakes the engine at `seconds` with nothing new, as a driver's timer would.
    mutating func tick(at seconds: Double) { steps.append((seconds, nil)) }

    static func time(_ seconds: Double) -> Timestamp { origin.adding(seconds: seconds) }

    /// Every update, in order; steps are sorted by time (stable), inputs before ticks at equal times.
    func run(_ policy: CadencePolicy = CadencePolicy(), settings: ActivitySettings = ActivitySettings()) throws -> [ActivityUpdate] {
        var engine = try LiveStateEngine(policy: policy, settings: settings)
        var updates: [ActivityUpdate] = []
        for step in steps.enumerated().sorted(by: { ($0.element.seconds, $0.offset) < ($1.element.seconds, $1.offset) }) {
            let time = Self.time(step.element.seconds)
            if let input = step.element.input {
                updates += try engine.receive(input, at: time)
            } else {
                updates += engine.tick(at: time)
            }
        }
        return updates
    }

    /// `<seconds> <event> <reason> <rate or -> p<priority>`.
    static func describe(_ update: ActivityUpdate) -> String {
        let seconds = update.timestamp.seconds(since: origin)
        let time = seconds == seconds.rounded() ? String(Int(seconds)) : String(seconds)
        let rate = update.contentState.heartRate.map(String.init) ?? "-"
        return "\(time) \(update.event.rawValue) \(update.reason.rawValue) \(rate) p\(update.priority)"
    }

    func described(_ policy: CadencePolicy = CadencePolicy()) throws -> [String] {
        try run(policy).map(Self.describe)
    }
}
