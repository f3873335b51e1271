/// One tunable number of `CadencePolicy`, described once for everyone who sets it: its name (the
/// property, and the configuration file's key), the command-line flag, the unit and a one-line help.
/// The CLI's cadence flags and the configuration's `cadence` keys are both made from
/// `CadencePolicy.parameters`, so a new threshold cannot reach one and miss the other.
public struct CadenceParameter: Sendable {
    public enum Unit: Sendable {
        case seconds
        /// Whole beats per minute.
        case bpm
        case meters
        /// A share given in percent (0–100).
        case percent
        /// Whole things per hour.
        case perHour
    }

    public let name: String
    public let flag: String
    public let unit: Unit
    public let help: String
    private let get: @Sendable (CadencePolicy) -> Double
    private let set: @Sendable (inout CadencePolicy, Double) -> Void

    public func value(in policy: CadencePolicy) -> Double { get(policy) }

    /// Sets it (a bpm value or count is rounded toward zero: callers check `isWhole` values first).
    public func set(_ value: Double, in policy: inout CadencePolicy) { set(&policy, value) }

    static func seconds(_ name: String, _ flag: String, _ help: String, _ keyPath: WritableKeyPath<CadencePolicy, Double> & Sendable) -> Self {
        real(name, flag, .seconds, help, keyPath)
    }

    static func meters(_ name: String, _ flag: String, _ help: String, _ keyPath: WritableKeyPath<CadencePolicy, Double> & Sendable) -> Self {
        real(name, flag, .meters, help, keyPath)
    }

    static func percent(_ name: String, _ flag: String, _ help: String, _ keyPath: WritableKeyPath<CadencePolicy, Double> & Sendable) -> Self {
        real(name, flag, .percent, help, keyPath)
    }

    private static func real(_ name: String, _ flag: String, _ unit: Unit, _ help: String, _ keyPath: WritableKeyPath<CadencePolicy, Double> & Sendable) -> Self {
        Self(name: name, flag: flag, unit: unit, help: help, get: { $0[keyPath: keyPath] }, set: { $0[keyPath: keyPath] = $1 })
    }

    static func perHour(_ name: String, _ flag: String, _ help: String, _ keyPath: WritableKeyPath<CadencePolicy, Int> & Sendable) -> Self {
        Self(name: name, flag: flag, unit: .perHour, help: help, get: { Double($0[keyPath: keyPath]) }, set: { $0[keyPath: keyPath] = Int($1) })
    }

    /// Whether values are whole numbers (bpm, counts): the CLI and the configuration refuse fractions.
    public var isWhole: Bool { unit == .bpm || unit == .perHour }

    static func bpm(_ name: String, _ flag: String, _ help: String, _ keyPath: WritableKeyPath<CadencePolicy, Int> & Sendable) -> Self {
        Self(name: name, flag: flag, unit: .bpm, help: help, get: { Double($0[keyPath: keyPath]) }, set: { $0[keyPath: keyPath] = Int($1) })
    }
}

extension CadencePolicy {
    /// Every number above, in the order `--help` and `config check` show them. (The zone list and
    /// `continueAfterTimeLimit` are not numbers; the CLI and the configuration read them themselves.)
    public static let parameters: [CadenceParameter] = [
        .seconds("smoothingWindow", "--smoothing", "window of the median the number shown leans toward", \.smoothingWindow),
        .seconds("trendWindow", "--trend-window", "the trend is the slope of this many seconds of samples", \.trendWindow),
        .seconds("trendHorizon", "--trend-horizon", "…carried this far ahead into the number shown", \.trendHorizon),
        .bpm("changeThreshold", "--threshold", "send when the newest sample is more than this far from the number shown", \.changeThreshold),
        .seconds("artefactPatience", "--artefact-patience", "a change that began with a sudden drop waits this long", \.artefactPatience),
        .bpm("artefactDrop", "--artefact-drop", "…a drop of this much between two samples", \.artefactDrop),
        .meters("distanceStep", "--distance-step", "send for the distance alone once the phone's is this far behind", \.distanceStep),
        .percent("distanceLagPercent", "--distance-lag-percent", "…or this share of the distance so far, if more", \.distanceLagPercent),
        .bpm("zoneHysteresis", "--zone-hysteresis", "how far past a zone boundary counts as crossed", \.zoneHysteresis),
        .seconds("minimumInterval", "--min-interval", "floor between routine updates (changed, refresh)", \.minimumInterval),
        .seconds("staleWindow", "--stale", "stale date = update time + S", \.staleWindow),
        .seconds("refreshLead", "--refresh-lead", "refresh this long before the stale date", \.refreshLead),
        .seconds("silenceTimeout", "--silence", "no valid sample this long: sensor lost", \.silenceTimeout),
        .seconds("noContactTimeout", "--no-contact", "no skin contact / rate 0 this long: sensor lost", \.noContactTimeout),
        .seconds("giveUpInterval", "--give-up", "sensor lost this long: end the activity", \.giveUpInterval),
        .seconds("activityTimeLimit", "--time-limit", "ActivityKit's limit on an activity's life", \.activityTimeLimit),
        .seconds("timeLimitMargin", "--time-limit-margin", "end this long before the time limit", \.timeLimitMargin),
        .seconds("dismissalDelay", "--dismissal", "final state stays this long after the end", \.dismissalDelay),
        .perHour("urgentPerHour", "--urgent-per-hour", "priority-10 pushes per activity in any hour, start and end included", \.urgentPerHour),
        .seconds("flapWindow", "--flap-window", "a loss or return this soon after the last is priority 5 (0: off)", \.flapWindow),
        .perHour("updatesPerHour", "--updates-per-hour", "routine updates per hour on average; raises the threshold (0: off)", \.updatesPerHour),
    ]
}
