/// What a control action came to: the one answer every surface gives its own way (`hrbridge ctl`
/// over D-Bus: a reply or an error name; MQTT: a log line; HTTP: a status and JSON).
public enum ControlOutcome: Sendable, Equatable {
    /// Done; the activity as it is now (ended, after an end).
    case applied(ActivityState)
    /// The engine would not take it: a label too long beside the workout name.
    case refused(String)
    /// The activity has already ended, or the session is no longer running.
    case ended
    /// This run has no such activity (the caller named one).
    case unknownActivity(String)

    /// Why it was not applied, in the words every surface uses; nil when it was.
    public var refusal: String? {
        switch self {
        case .applied: nil
        case let .refused(reason): reason
        case .ended: Self.endedText
        case let .unknownActivity(activity): "no activity \(activity) in this run"
        }
    }

    public static let endedText = "the activity has already ended"
}
