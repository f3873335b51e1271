import LiveState

/// The `cadence` section: overrides for the live-state engine's `CadencePolicy`, at the top level
/// (every strap) and per strap (zones are personal). Keys are the policy's property names, the
/// numbers among them taken from `CadencePolicy.parameters` (the CLI's flags come from the same
/// table); an absent key keeps the engine's default, so defaults live in one place.
/// `CadencePolicy.validated()` adds the checks across keys (refreshLead below staleWindow, …).
public struct CadenceSettings: Sendable, Equatable {
    /// `CadencePolicy.parameters` set here, by name.
    var numbers: [String: Double] = [:]
    var zoneBoundaries: [Int]?
    var continueAfterTimeLimit: Bool?

    public init() {}

    /// These settings where set, `base` elsewhere (a strap's own cadence over the file's).
    public func overriding(_ base: CadenceSettings) -> CadenceSettings {
        var merged = base
        for field in CadenceSection.fields { field.copyIfSet(self, &merged) }
        return merged
    }

    /// The engine's defaults with these settings over them, validated by the engine.
    public func policy() throws(LiveStateError) -> CadencePolicy {
        var policy = CadencePolicy()
        for field in CadenceSection.fields { field.apply(self, &policy) }
        return try policy.validated()
    }

    /// Whether the key is set here (to say which section a policy error comes from).
    func isSet(_ key: String) -> Bool {
        CadenceSection.fields.first { $0.key == key }?.render(self) != nil
    }
}

enum CadenceSection {
    /// One key: how to read it into `CadenceSettings`, copy it, apply it to the policy, and print it.
    struct Field {
        let key: String
        let read: (ConfigNode, inout CadenceSettings) -> Void
        let copyIfSet: (CadenceSettings, inout CadenceSettings) -> Void
        let apply: (CadenceSettings, inout CadencePolicy) -> Void
        let render: (CadenceSettings) -> JSONValue?
        let renderPolicy: (CadencePolicy) -> JSONValue
    }

    /// Heart rates people have: a bound that keeps typos (1400) out without judging physiology.
    static let plausibleBPM = 1...300

    static var fields: [Field] {
        let numbers = CadencePolicy.parameters.map { parameter in
            switch parameter.unit {
            case .seconds: number(parameter, read: { $0.seconds() }, render: { .number(JSONNumber.text($0)) })
            case .meters: number(parameter, read: { $0.meters() }, render: { .number(JSONNumber.text($0)) })
            case .percent: number(parameter, read: { $0.percent() }, render: { .number(JSONNumber.text($0)) })
            case .bpm: number(parameter, read: { $0.integer(in: 0...plausibleBPM.upperBound, unit: "bpm").map(Double.init) },
                              render: { .number(String(Int($0))) })
            // The range is the policy's to check (it depends on other keys); here only whole and >= 0.
            case .perHour: number(parameter, read: { $0.integer(in: 0...Int(CadencePolicy.longestDuration), unit: "per hour").map(Double.init) },
                                  render: { .number(String(Int($0))) })
            }
        }
        return numbers + [
            field(SettingNames.zoneBoundaries.key, \.zoneBoundaries, \.zoneBoundaries, read: bpmList, render: { .array($0.map { .number(String($0)) }) }),
            field(SettingNames.continueAfterTimeLimit.key, \.continueAfterTimeLimit, \.continueAfterTimeLimit, read: { $0.bool() }, render: { .bool($0) }),
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

    /// Every key of the policy, in table order: what the engine will use.
    static func json(_ policy: CadencePolicy) -> JSONValue {
        .object(fields.map { JSONValue.Member($0.key, $0.renderPolicy(policy)) })
    }

    private static func field<Value>(
        _ key: String,
        _ setting: WritableKeyPath<CadenceSettings, Value?>,
        _ parameter: WritableKeyPath<CadencePolicy, Value>,
        read: @escaping (ConfigNode) -> Value?,
        render: @escaping (Value) -> JSONValue
    ) -> Field {
        Field(
            key: key,
            read: { node, settings in
                if let value = read(node) { settings[keyPath: setting] = value }
            },
            copyIfSet: { source, target in
                if let value = source[keyPath: setting] { target[keyPath: setting] = value }
            },
            apply: { settings, policy in
                if let value = settings[keyPath: setting] { policy[keyPath: parameter] = value }
            },
            render: { settings in settings[keyPath: setting].map(render) },
            renderPolicy: { policy in render(policy[keyPath: parameter]) }
        )
    }

    /// One of `CadencePolicy.parameters`, kept in `CadenceSettings.numbers` under its name.
    private static func number(_ parameter: CadenceParameter, read: @escaping (ConfigNode) -> Double?,
                               render: @escaping (Double) -> JSONValue) -> Field {
        Field(
            key: parameter.name,
            read: { node, settings in
                if let value = read(node) { settings.numbers[parameter.name] = value }
            },
            copyIfSet: { source, target in
                if let value = source.numbers[parameter.name] { target.numbers[parameter.name] = value }
            },
            apply: { settings, policy in
                if let value = settings.numbers[parameter.name] { parameter.set(value, in: &policy) }
            },
            render: { settings in settings.numbers[parameter.name].map(render) },
            renderPolicy: { policy in render(parameter.value(in: policy)) }
        )
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
