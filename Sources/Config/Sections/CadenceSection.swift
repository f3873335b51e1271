/// The `cadence` section: overrides for the live-state engine's thresholds, at the top level (every
/// strap) and per strap (zones are personal). Keys are the engine's parameter names
/// (`CadencePolicy` in Sources/LiveState, branch livestate); an absent key keeps the engine's default,
/// so defaults live in one place. This file is the whole mapping: at merge, `CadenceSettings`
/// applies onto `CadencePolicy` and `CadencePolicy.validated()` adds the cross-key checks
/// (refreshLead below staleWindow, …), its `invalidSetting(name:)` reported at `cadence.<name>`.
public struct CadenceSettings: Sendable, Equatable {
    public var smoothingWindow: Double?
    public var changeThreshold: Int?
    public var zoneBoundaries: [Int]?
    public var zoneHysteresis: Int?
    public var minimumInterval: Double?
    public var staleWindow: Double?
    public var refreshLead: Double?
    public var silenceTimeout: Double?
    public var noContactTimeout: Double?
    public var giveUpInterval: Double?
    public var activityTimeLimit: Double?
    public var timeLimitMargin: Double?
    public var continueAfterTimeLimit: Bool?
    public var dismissalDelay: Double?

    public init() {}

    /// These settings where set, `base` elsewhere (a strap's own cadence over the file's).
    public func overriding(_ base: CadenceSettings) -> CadenceSettings {
        var merged = base
        for field in CadenceSection.fields { field.copyIfSet(self, &merged) }
        return merged
    }
}

enum CadenceSection {
    /// One key: how to read it into `CadenceSettings`, copy it, and print it.
    struct Field {
        let key: String
        let read: (ConfigNode, inout CadenceSettings) -> Void
        let copyIfSet: (CadenceSettings, inout CadenceSettings) -> Void
        let render: (CadenceSettings) -> JSONValue?
    }

    /// Heart rates people have: a bound that keeps typos (1400) out without judging physiology.
    static let plausibleBPM = 1...300

    static var fields: [Field] {
        [
            seconds("smoothingWindow", \.smoothingWindow),
            bpm("changeThreshold", \.changeThreshold),
            field("zoneBoundaries", \.zoneBoundaries, read: bpmList, render: { .array($0.map { .number(String($0)) }) }),
            bpm("zoneHysteresis", \.zoneHysteresis),
            seconds("minimumInterval", \.minimumInterval),
            seconds("staleWindow", \.staleWindow),
            seconds("refreshLead", \.refreshLead),
            seconds("silenceTimeout", \.silenceTimeout),
            seconds("noContactTimeout", \.noContactTimeout),
            seconds("giveUpInterval", \.giveUpInterval),
            seconds("activityTimeLimit", \.activityTimeLimit),
            seconds("timeLimitMargin", \.timeLimitMargin),
            field("continueAfterTimeLimit", \.continueAfterTimeLimit, read: { $0.bool() }, render: { .bool($0) }),
            seconds("dismissalDelay", \.dismissalDelay),
        ]
    }

    static var keys: [String] { fields.map(\.key) }

    static func read(_ node: ConfigNode) -> CadenceSettings {
        var settings = CadenceSettings()
        guard let object = ObjectFields(node, allowed: keys) else { return settings }
        for field in fields {
            if let value = object.optional(field.key) { field.read(value, &settings) }
        }
        return settings
    }

    /// The keys that are set, in table order.
    static func json(_ settings: CadenceSettings) -> JSONValue {
        .object(fields.compactMap { field in field.render(settings).map { JSONValue.Member(field.key, $0) } })
    }

    private static func field<Value>(
        _ key: String,
        _ keyPath: WritableKeyPath<CadenceSettings, Value?>,
        read: @escaping (ConfigNode) -> Value?,
        render: @escaping (Value) -> JSONValue
    ) -> Field {
        Field(
            key: key,
            read: { node, settings in
                if let value = read(node) { settings[keyPath: keyPath] = value }
            },
            copyIfSet: { source, target in
                if let value = source[keyPath: keyPath] { target[keyPath: keyPath] = value }
            },
            render: { settings in settings[keyPath: keyPath].map(render) }
        )
    }

    private static func seconds(_ key: String, _ keyPath: WritableKeyPath<CadenceSettings, Double?>) -> Field {
        field(key, keyPath, read: { $0.seconds() }, render: { .number(JSONNumber.text($0)) })
    }

    private static func bpm(_ key: String, _ keyPath: WritableKeyPath<CadenceSettings, Int?>) -> Field {
        field(key, keyPath, read: { $0.integer(in: 0...plausibleBPM.upperBound, unit: "bpm") }, render: { .number(String($0)) })
    }

    private static func bpmList(_ node: ConfigNode) -> [Int]? {
        guard let elements = node.array() else { return nil }
        let values = elements.map { $0.integer(in: plausibleBPM, unit: "bpm") }
        guard values.allSatisfy({ $0 != nil }) else { return nil }
        let boundaries = values.compactMap { $0 }
        guard boundaries == boundaries.sorted(), Set(boundaries).count == boundaries.count else {
            node.report("expected zone lower bounds in rising order, got \(boundaries)")
            return nil
        }
        return boundaries
    }
}
