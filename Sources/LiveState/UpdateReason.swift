/// Why an update was sent. Open-ended as text (`end:<why>`), so it is a string-backed struct
/// rather than an enum; the known values are the static members.
public struct UpdateReason: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    public var rawValue: String

    public init(rawValue: String) { self.rawValue = rawValue }

    public var description: String { rawValue }

    /// The first valid sample started the activity.
    public static let start = UpdateReason(rawValue: "start")
    /// The displayed rate moved by the threshold or crossed a zone boundary.
    public static let changed = UpdateReason(rawValue: "changed")
    /// Nothing changed enough, but the previous update's stale date is near.
    public static let refresh = UpdateReason(rawValue: "refresh")
    /// No valid sample for too long, no skin contact, or disconnected: heart rate absent.
    public static let sensorLost = UpdateReason(rawValue: "sensor-lost")
    /// The first valid sample after a loss.
    public static let sensorBack = UpdateReason(rawValue: "sensor-back")
    public static let paused = UpdateReason(rawValue: "paused")
    public static let resumed = UpdateReason(rawValue: "resumed")
    /// The interval label changed.
    public static let label = UpdateReason(rawValue: "label")

    /// `end:<cause>`.
    public static func end(_ cause: EndCause) -> UpdateReason {
        UpdateReason(rawValue: "end:\(cause.rawValue)")
    }

    /// The cause of an `end:` reason, if this is one.
    public var endCause: EndCause? {
        guard rawValue.hasPrefix("end:") else { return nil }
        return EndCause(rawValue: String(rawValue.dropFirst(4)))
    }

    /// Whether a reason of this kind is urgent (priority 10) by itself; the engine's push budget
    /// may still send a sensor-lost or sensor-back at 5 (`ActivityUpdate.isDemoted`).
    public var isImmediate: Bool {
        self == .start || self == .sensorLost || self == .sensorBack || endCause != nil
    }
}

extension ActivityUpdate {
    public typealias Reason = UpdateReason
}

/// Why an activity ended.
public enum EndCause: String, Sendable, Hashable, CaseIterable {
    /// The source finished (end of a trace) or a person or signal stopped the bridge.
    case stopped
    /// The strap stayed away longer than the give-up interval.
    case sensorGone = "sensor-gone"
    /// ActivityKit ends activities after 8 hours; we end ours just before, with a final state.
    case timeLimit = "time-limit"
    /// A previous run stopped without ending it (crash, SIGKILL, power loss); this run ended it at start-up.
    case recovered
    /// The trace being replayed broke off (a line that cannot be read): ended as a stop at its last
    /// good event, but saying the workout did not really end there.
    case traceError = "trace-error"
}
