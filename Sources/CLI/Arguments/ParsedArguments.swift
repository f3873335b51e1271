/// argv after `CommandSpec` has checked it.
struct ParsedArguments: Sendable {
    var values: [String: [String]] = [:]
    var flags: Set<String> = []
    var positionals: [String] = []
    var wantsHelp = false

    func value(_ name: String) -> String? { values[name]?.last }
    func allValues(_ name: String) -> [String] { values[name] ?? [] }
    func has(_ flag: String) -> Bool { flags.contains(flag) }

    /// Parses `arguments` (after the command name). Accepts `--name value` and `--name=value`;
    /// `--` ends the options.
    init(_ arguments: [String], spec: CommandSpec) throws(CLIError) {
        var index = 0
        var optionsEnded = false
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            guard !optionsEnded, argument.hasPrefix("-"), argument != "-" else {
                positionals.append(argument)
                continue
            }
            if argument == "--" {
                optionsEnded = true
                continue
            }
            if argument == "--help" || argument == "-h" {
                wantsHelp = true
                continue
            }
            let (name, inlineValue) = Self.split(argument)
            guard let option = spec.options.first(where: { $0.name == name }) else {
                throw .usage("unknown option '\(name)' for '\(spec.name)'", spec)
            }
            guard option.valueName != nil else {
                guard inlineValue == nil else { throw .usage("\(name) takes no value", spec) }
                flags.insert(name)
                continue
            }
            let value: String
            if let inlineValue {
                value = inlineValue
            } else {
                guard index < arguments.count else { throw .usage("\(name) needs a value", spec) }
                value = arguments[index]
                index += 1
            }
            if !option.repeatable, values[name] != nil { throw .usage("\(name) given more than once", spec) }
            values[name, default: []].append(value)
        }
        guard !wantsHelp else { return }
        let required = spec.positionals.filter { !$0.optional }.count
        guard positionals.count >= required else {
            throw .usage("missing \(spec.positionals[positionals.count].name)", spec)
        }
        guard positionals.count <= spec.positionals.count || spec.positionals.last?.repeatable == true else {
            throw .usage("unexpected argument '\(positionals[spec.positionals.count])'", spec)
        }
    }

    private static func split(_ argument: String) -> (String, String?) {
        guard let equals = argument.firstIndex(of: "=") else { return (argument, nil) }
        return (String(argument[..<equals]), String(argument[argument.index(after: equals)...]))
    }
}
