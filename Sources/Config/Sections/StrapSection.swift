import SinkVocabulary
import FoundationEssentials
import LiveState
import Sensors
import Platform

/// The `straps` section: which strap feeds which activity, and where its updates go. The activity
/// keys are LiveState's `ActivitySettings` (workoutName, intervalLabel, activityIDPrefix).
///
///     "straps": [
///       {"address": "C8:5F:33:12:34:56", "workoutName": "Run", "intervalLabel": "Warm-up",
///        "cadence": {"zoneBoundaries": [114, 133, 152, 171]}, "sinks": [{"type": "stdout"}],
///        "distanceSensor": {"name": "Stryd"}, "wheelCircumference": 2.105, "heartRateFrom": "strap"}
///     ]
enum StrapSection {
    static let keys = SettingNames.keys(of: .strap)

    static func read(_ node: ConfigNode, cadence base: CadenceSettings, kinds: SinkCatalog) -> [StrapConfiguration]? {
        guard let elements = node.array() else { return nil }
        guard !elements.isEmpty else { node.report("expected at least one strap"); return nil }
        var straps: [StrapConfiguration] = []
        var firstUse: [SensorSelector: Int] = [:]
        for (index, element) in elements.enumerated() {
            guard let strap = readStrap(element, cadence: base, kinds: kinds) else { continue }
            let sensors = [strap.strap] + (strap.distanceSensor.map { [$0] } ?? [])
            if let used = sensors.first(where: { firstUse[$0] != nil }) {
                element.report("\(used.configured) is already used by straps[\(firstUse[used]!)]; one sensor feeds one activity")
                continue
            }
            for sensor in sensors { firstUse[sensor] = index }
            straps.append(strap)
        }
        return straps.count == elements.count ? straps : nil
    }

    private static func readStrap(_ node: ConfigNode, cadence base: CadenceSettings, kinds: SinkCatalog) -> StrapConfiguration? {
        guard let object = ObjectFields(node, allowed: keys) else { return nil }
        let selector = readSelector(object)
        let distanceSensor = object.optional(SettingNames.distanceSensor.key).map(readDistanceSensor)
        let wheel = object.optional(SettingNames.wheelCircumference.key).map { $0.meters(in: DistanceSettings.plausibleWheelCircumference) }
        let heartRateFrom = object.optional(SettingNames.heartRateFrom.key).map { $0.choice(HeartRateSource.allCases.map(\.rawValue)).flatMap(HeartRateSource.init) }
        let workoutName = object.required(SettingNames.workoutName.key, "the workout's name shown on the Lock Screen")?.nonEmptyString()
        let intervalLabel = object.optional(SettingNames.intervalLabel.key)?.string()
        let prefix = object.optional(SettingNames.activityIDPrefix.key)?.activityIDPrefix()
        let cadence = policy(own: object.optional(SettingNames.strapCadence.key).map(CadenceSection.read) ?? CadenceSettings(), base: base, strap: node)
        let sinks = object.required(SettingNames.sinks.key, "where this strap's updates go").flatMap { SinkSection.readSinks($0, kinds: kinds) }
        let optionalsRead = (object.has(SettingNames.intervalLabel.key) == (intervalLabel != nil)) && (object.has(SettingNames.activityIDPrefix.key) == (prefix != nil))
        // An optional key that is present but unreadable has been reported: the strap is not made.
        let distanceRead = (distanceSensor.map { $0 != nil } ?? true) && (wheel.map { $0 != nil } ?? true) && (heartRateFrom.map { $0 != nil } ?? true)
        guard let selector, let workoutName, let cadence, let sinks, optionalsRead, distanceRead else { return nil }
        if let distanceSensor = distanceSensor ?? nil, distanceSensor == selector {
            object.optional(SettingNames.distanceSensor.key)?.report("the distance sensor cannot be the strap itself")
            return nil
        }
        if heartRateFrom == .machine, distanceSensor == nil {
            object.optional(SettingNames.heartRateFrom.key)?.report("\"machine\" takes the heart rate from the distanceSensor; none is given")
            return nil
        }
        var activity = ActivitySettings(workoutName: workoutName)
        if let intervalLabel { activity.intervalLabel = intervalLabel }
        if let prefix { activity.activityIDPrefix = prefix }
        guard fitsActivityKit(activity, strap: node) else { return nil }
        var distance = DistanceSettings()
        if let circumference = wheel ?? nil { distance.wheelCircumference = circumference }
        if let source = heartRateFrom ?? nil { distance.heartRateFrom = source }
        return StrapConfiguration(strap: selector, distanceSensor: distanceSensor ?? nil, distance: distance,
                                  activity: activity, cadence: cadence, sinks: sinks)
    }

    /// Every update carries the workout name and the label, so if they alone push attributes + content
    /// state past ActivityKit's limit, no update could ever be sent: measured with the engine's encoder
    /// on the largest content state (paused, three-digit rate, dates with microseconds).
    private static func fitsActivityKit(_ activity: ActivitySettings, strap: ConfigNode) -> Bool {
        let start = Date(timeIntervalSinceReferenceDate: 999_999_999.999999)
        let state = WorkoutActivityAttributes.ContentState(
            timerRange: start...start.addingTimeInterval(8 * 3600 + 0.999999), pausedAt: start, heartRate: 300,
            intervalLabel: activity.intervalLabel
        )
        do {
            _ = try ActivityKitEncoding.payload(attributes: WorkoutActivityAttributes(workoutName: activity.workoutName), contentState: state)
            return true
        } catch {
            strap.report("workoutName and intervalLabel are too long for a Live Activity: \(error)")
            return false
        }
    }

    /// The strap's policy, or nil after reporting what the engine refused, at the key the person should
    /// change: the strap's own cadence when it set that key or made the combination, else the file's.
    private static func policy(own: CadenceSettings, base: CadenceSettings, strap: ConfigNode) -> CadencePolicy? {
        do {
            return try own.overriding(base).policy()
        } catch {
            guard case let .invalidSetting(name, value, expected) = error else {
                strap.log.report(strap.path.appending(SettingNames.strapCadence.key), "\(error)")
                return nil
            }
            let atStrap = own.isSet(name) || (!base.isSet(name) && own != CadenceSettings())
            let path = (atStrap ? strap.path : ConfigPath.root).appending("cadence").appending(name)
            strap.log.report(path, "expected \(expected), got \(value)")
            return nil
        }
    }

    /// `{"address": …}` or `{"name": …}`, as a strap is named.
    private static func readDistanceSensor(_ node: ConfigNode) -> SensorSelector? {
        guard let object = ObjectFields(node, allowed: [SettingNames.address.key, SettingNames.name.key]) else { return nil }
        return readSelector(object)
    }

    private static func readSelector(_ object: ObjectFields) -> SensorSelector? {
        switch (object.optional(SettingNames.address.key), object.optional(SettingNames.name.key)) {
        case let (address?, nil):
            return address.bluetoothAddress().map(SensorSelector.address)
        case let (nil, name?):
            return name.nonEmptyString().map(SensorSelector.name)
        case (.some, .some):
            object.node.report("expected \"address\" or \"name\", not both (the address is exact; use it alone)")
            return nil
        case (nil, nil):
            object.node.report("missing key \"address\" (AA:BB:CC:DD:EE:FF) or \"name\" (as the strap advertises it)")
            return nil
        }
    }

    static func json(_ strap: StrapConfiguration, kinds: SinkCatalog) -> JSONValue {
        var members: [JSONValue.Member] = []
        members.append(selectorMember(strap.strap))
        if let sensor = strap.distanceSensor {
            members.append(.init(SettingNames.distanceSensor.key, .object([selectorMember(sensor)])))
            members.append(.init(SettingNames.wheelCircumference.key, .number(JSONNumber.text(strap.distance.wheelCircumference))))
            members.append(.init(SettingNames.heartRateFrom.key, .string(strap.distance.heartRateFrom.rawValue)))
        }
        members.append(.init(SettingNames.workoutName.key, .string(strap.activity.workoutName)))
        members.append(.init(SettingNames.intervalLabel.key, .string(strap.activity.intervalLabel)))
        members.append(.init(SettingNames.activityIDPrefix.key, .string(strap.activity.activityIDPrefix)))
        members.append(.init(SettingNames.strapCadence.key, CadenceSection.json(strap.cadence)))
        members.append(.init(SettingNames.sinks.key, .array(strap.sinks.map { SinkSection.json($0, kinds: kinds) })))
        return .object(members)
    }

    /// `"address": …` or `"name": …`, as a strap or its distance sensor is named in the file.
    private static func selectorMember(_ selector: SensorSelector) -> JSONValue.Member {
        switch selector {
        case let .address(address): .init(SettingNames.address.key, .string(address))
        case let .name(name): .init(SettingNames.name.key, .string(name))
        // The file always names its sensors (readSelector): a configuration read from one holds
        // no "first strap found", which only the command line's default means.
        case .anyHeartRateStrap: .init(SettingNames.name.key, .null)
        }
    }
}

private extension ConfigNode {
    /// Six hex pairs separated by colons, as BlueZ shows them; returned upper case, as BlueZ compares.
    func bluetoothAddress() -> String? {
        guard let text = string() else { return nil }
        // Scalars, not Characters: Character.isHexDigit also takes fullwidth "Ａ", which BlueZ never shows.
        let pairs = text.unicodeScalars.split(separator: ":", omittingEmptySubsequences: false)
        guard pairs.count == 6, pairs.allSatisfy({ $0.count == 2 && $0.allSatisfy(\.properties.isASCIIHexDigit) }) else {
            report("expected a Bluetooth address like C8:5F:33:12:34:56, got \(text.jsonQuoted)")
            return nil
        }
        return text.uppercased()
    }

    /// Activity ids are `<prefix>-<start>-<n>` and travel in URLs and file names: keep the prefix plain.
    func activityIDPrefix() -> String? {
        guard let text = string() else { return nil }
        guard !text.isEmpty, text.count <= 32,
              text.unicodeScalars.allSatisfy({ $0.isASCIILetterOrDigit || $0 == "-" })
        else {
            report("expected 1 to 32 letters, digits or '-', got \(text.jsonQuoted)")
            return nil
        }
        return text
    }
}
