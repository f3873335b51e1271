import Dispatch
import LiveState
import LiveView

/// The sessions of one run as the control surfaces see them: each by the name `ctl --strap` selects
/// it by, and every action through `LiveSession.apply`, the one entry point. D-Bus picks sessions by
/// strap, HTTP by activity; both wait here for the answer on their own thread (never the session's).
public final class SessionControls: Sendable {
    /// A session and the name `ctl --strap` selects it by (address or name; `replay` for a trace).
    public struct Target: Sendable {
        public let name: String
        package let session: LiveSession
        /// How the distance sensor beside the strap is named, if there is one.
        let distanceSensor: String?

        public init(name: String, session: LiveSession, distanceSensor: String? = nil) {
            self.name = name
            self.session = session
            self.distanceSensor = distanceSensor
        }

        /// Its sensors as the status lines show them (`run`'s terminal, `ctl status --watch`).
        package func sensorStatus() -> [SensorStatus] {
            session.sensorStatus(strap: name, distanceSensor: distanceSensor)
        }
    }

    public let targets: [Target]

    /// Every strap's sensors, in order, as the status lines show them.
    public func sensorStatus() -> [SensorStatus] {
        targets.flatMap { $0.sensorStatus() }
    }

    public init(_ targets: [Target]) {
        self.targets = targets
    }

    /// The targets a strap selector names ("" or nil: all), case ignored.
    package func targets(strap selector: String?) -> [Target] {
        guard let selector, !selector.isEmpty else { return targets }
        return targets.filter { $0.name.lowercased() == selector.lowercased() }
    }

    /// `action` on each of `chosen`'s running activity, answers in their order (blocks this thread).
    package func apply(_ action: ControlAction, to chosen: [Target]) -> [(target: Target, outcome: ControlOutcome)] {
        zip(chosen, chosen.map { target in Self.wait { target.session.apply(action, reply: $0) } }).map { ($0, $1) }
    }

    /// `action` on the activity named `activity`, in whichever session has it (blocks this thread):
    /// the first session that knows it answers; unknown to all, it is unknown.
    package func apply(_ action: ControlAction, toActivity activity: String) -> (target: Target?, outcome: ControlOutcome) {
        for target in targets {
            let outcome = Self.wait { target.session.apply(action, to: activity, reply: $0) }
            if case .unknownActivity = outcome { continue }
            return (target, outcome)
        }
        return (nil, .unknownActivity(activity))
    }

    /// Each session's current activity (or the one it ended last), for a listing.
    package func activities() -> [(target: Target, activity: ActivityState?)] {
        targets.map { ($0, $0.session.status().activityState) }
    }

    /// The answer a session gives `start`'s reply, waited for on this thread.
    static func wait<Outcome: Sendable>(_ start: (@escaping @Sendable (Outcome) -> Void) -> Void) -> Outcome {
        let answer = Answer<Outcome>()
        start { answer.give($0) }
        return answer.take()
    }
}

/// One outcome handed from a session's queue to the thread that waits for it.
// `outcome` is written once before the semaphore is signalled and read only after the wait returns.
private final class Answer<Outcome: Sendable>: @unchecked Sendable {
    private let ready = DispatchSemaphore(value: 0)
    private var outcome: Outcome?

    func give(_ outcome: Outcome) {
        self.outcome = outcome
        ready.signal()
    }

    func take() -> Outcome {
        ready.wait()
        return outcome!
    }
}
