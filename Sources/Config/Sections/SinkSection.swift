import Platform
import SinkVocabulary

/// The sink settings: each strap's `sinks` list, each kind's shared object (the team-wide `apns`)
/// and the `http` object. What a sink object may hold comes from its kind's description
/// (`SinkCatalog`, `SinkDescription.options`): the same table that makes the command-line flags.
///
///     "sinks": [
///       {"type": "stdout"},
///       {"type": "file", "path": "/var/log/hrbridge/updates.ndjson"},
///       {"type": "lifecycle", "url": "https://example.org/activities", "tokenFile": "credential:lifecycle-token"},
///       {"type": "apns", "deviceTokenFile": "credential:phone-activity-token"}
///     ]
enum SinkSection {
    static func readSinks(_ node: ConfigNode, kinds: SinkCatalog) -> [SinkSettings]? {
        guard let elements = node.array() else { return nil }
        guard !elements.isEmpty else { node.report("expected at least one sink"); return nil }
        var sinks: [SinkSettings] = []
        var seen: Set<SinkSettings> = []
        for element in elements {
            guard let sink = readSink(element, kinds) else { continue }
            guard seen.insert(sink).inserted else { element.report("the same sink is listed twice"); continue }
            sinks.append(sink)
        }
        return sinks.count == elements.count ? sinks : nil
    }

    private static func readSink(_ node: ConfigNode, _ kinds: SinkCatalog) -> SinkSettings? {
        let typeNames = kinds.kinds.map(\.name)
        guard case let .object(members) = node.value else {
            node.report("expected an object with a \"type\" (\(typeNames.joined(separator: ", "))), got \(node.value.kindDescription)")
            return nil
        }
        guard let typeMember = members.first(where: { $0.key == "type" }) else {
            node.report("missing key \"type\" (one of \(typeNames.joined(separator: ", ")))")
            return nil
        }
        guard let name = ConfigNode(value: typeMember.value, path: node.path.appending("type"), log: node.log).choice(typeNames),
              let kind = kinds.named(name)
        else { return nil }
        return readValues(kind.ownOptions, of: [kind], in: node, allowing: ["type"], noun: "an \(kind.name) sink")
            .map { SinkSettings(kind: kind.name, values: $0) }
    }

    /// A shared settings object (`"apns": {…}`), every required setting in it.
    static func readShared(_ object: SinkCatalog.SharedObject, _ node: ConfigNode) -> SinkValues? {
        readValues(object.options, of: object.kinds, in: node, allowing: [], noun: object.name.jsonQuoted)
    }

    /// The values of `options` in the object at `node`, or nil after reporting every problem: each
    /// unreadable value, each missing required key, each group (of `kinds`) of which none or too many are given.
    private static func readValues(_ options: [SinkOption], of kinds: [SinkDescription], in node: ConfigNode, allowing extra: [String], noun: String) -> SinkValues? {
        guard let object = ObjectFields(node, allowed: extra + options.flatMap(\.configKeys)) else { return nil }
        var values = SinkValues()
        var present: Set<String> = []
        var complete = true
        for option in options {
            let given = option.configKeys.filter(object.has)
            if !given.isEmpty { present.insert(option.key) }
            if given.isEmpty, option.required {
                node.report("missing key \(option.configKeys[0].jsonQuoted) (\(option.help))")
                complete = false
            }
            guard let key = given.first else { continue }
            guard given.count == 1 else {
                node.report("expected \(given.joined(separator: " or ")), not both")
                complete = false
                continue
            }
            guard let value = object.optional(key)?.sinkValue(option, key: key) else { complete = false; continue }
            values[option.key] = value
        }
        let ownKeys = Set(options.map(\.key))
        func keys(_ key: String) -> [String] { options.first { $0.key == key }?.configKeys ?? [] }
        for group in Set(kinds.flatMap(\.atMostOne)) where group.allSatisfy(ownKeys.contains) {
            let given = group.filter(present.contains)
            guard given.count > 1 else { continue }
            node.report("expected \(given.compactMap { keys($0).first(where: object.has) }.joined(separator: " or ")), not both")
            complete = false
        }
        for group in Set(kinds.flatMap(\.atLeastOne)) where group.allSatisfy(ownKeys.contains) && !group.contains(where: present.contains) {
            node.report("\(noun) needs \(group.flatMap(keys).alternatives)")
            complete = false
        }
        return complete ? values : nil
    }

    // MARK: http

    /// Curl takes whole milliseconds: under one it would get 0, which means no limit at all, and
    /// 1e16 s overflows the conversion. A stuck server must not hold the delivery queue for long.
    static let timeouts = 0.001...600.0

    static func readHTTP(_ node: ConfigNode) -> HTTPSettings {
        var settings = HTTPSettings()
        guard let object = ObjectFields(node, allowed: SettingNames.keys(of: .http)) else {
            return settings
        }
        settings.certificateAuthorityFile = object.optional(SettingNames.certificateAuthorityFile.key)?.absolutePath()
        settings.connectTimeout = object.optional(SettingNames.connectTimeout.key)?.timeout()
        settings.requestTimeout = object.optional(SettingNames.requestTimeout.key)?.timeout()
        return settings
    }

    // MARK: printing

    static func json(_ sink: SinkSettings, kinds: SinkCatalog) -> JSONValue {
        .object([.init("type", .string(sink.kind))] + members(sink.values, kinds.named(sink.kind)?.ownOptions ?? []))
    }

    static func json(shared values: SinkValues, options: [SinkOption]) -> JSONValue {
        .object(members(values, options))
    }

    /// Each given option under the key it was read from; a secret as where it is read from.
    private static func members(_ values: SinkValues, _ options: [SinkOption]) -> [JSONValue.Member] {
        options.compactMap { option in
            switch values[option.key] {
            case nil: nil
            case let .text(text)?: .init(option.key, .string(text))
            case let .number(number)?:
                if case let .numberInObject(field, _) = option.value {
                    .init(option.key, .object([.init(field, .number(JSONNumber.text(number)))]))
                } else {
                    .init(option.key, .number(JSONNumber.text(number)))
                }
            case let .toggle(on)?: .init(option.key, .bool(on))
            case let .secret(.file(reference))?: .init(option.key + "File", .string(reference.description))
            case let .secret(.environment(name))?: .init(option.key + "Environment", .string(name))
            }
        }
    }

    static func json(_ settings: HTTPSettings) -> JSONValue {
        var members: [JSONValue.Member] = []
        if let file = settings.certificateAuthorityFile { members.append(.init(SettingNames.certificateAuthorityFile.key, .string(file))) }
        if let seconds = settings.connectTimeout { members.append(.init(SettingNames.connectTimeout.key, .number(JSONNumber.text(seconds)))) }
        if let seconds = settings.requestTimeout { members.append(.init(SettingNames.requestTimeout.key, .number(JSONNumber.text(seconds)))) }
        return .object(members)
    }
}

private extension ConfigNode {
    /// The option's value from this member (`key` says which of a secret's ways it is).
    func sinkValue(_ option: SinkOption, key: String) -> SinkValue? {
        let result: Result<SinkValue, SinkValueProblem>
        switch (option.value, value) {
        case (.secret, .string(let text)) where key.hasSuffix("Environment"):
            result = option.value.readEnvironmentName(text)
        case (.number, .number(let text)):
            result = option.value.read(text, from: .configuration)
        case (.toggle, .bool(let on)):
            result = .success(.toggle(on))
        case let (.numberInObject(field, choices), .object):
            guard let object = ObjectFields(self, allowed: [field]),
                  let member = object.required(field, SinkOption.Value.describe(choices)) else { return nil }
            guard case let .number(text) = member.value, let number = Int(text), choices.contains(where: { $0.number == number }) else {
                member.report("expected \(SinkOption.Value.describe(choices)), got \(member.value.kindDescription)")
                return nil
            }
            return .number(Double(number))
        case let (.numberInObject(field, choices), _):
            report("expected an object {\"\(field)\": \(choices.map { String($0.number) }.joined(separator: " or "))}, got \(value.kindDescription)")
            return nil
        case (.number, _):
            report("expected a number, got \(value.kindDescription)"); return nil
        case (.toggle, _):
            report("expected true or false, got \(value.kindDescription)"); return nil
        case (_, .string(let text)):
            result = option.value.read(text, from: .configuration)
        default:
            report("expected a string, got \(value.kindDescription)"); return nil
        }
        switch result {
        case let .success(value): return value
        case let .failure(problem): report(problem.message); return nil
        }
    }

    func timeout() -> Double? {
        guard let seconds = seconds() else { return nil }
        guard seconds > 0 else { report("expected seconds > 0, got 0"); return nil }
        return within(SinkSection.timeouts, seconds, unit: "seconds")
    }
}
