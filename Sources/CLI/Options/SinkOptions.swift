import Forwarding
import FoundationEssentials
import Session
import SinkVocabulary
import SessionState

/// The `--sink` flags shared by `replay` and `run`: where updates go and what each sink needs. Every
/// sink flag comes from its kind's description (`SinkKinds.all`), as the configuration's sink keys
/// do. Secrets never come from argv: from a file, or an environment variable where the kind allows.
enum SinkOptions {
    /// Built once (`run` and `replay` both list them, and `SinkSet.make` checks against them): every
    /// kind's text made again on each use would weigh on a bundled replay's start-up.
    static let specOptions: [CommandSpec.Option] = {
        let kinds = SinkKinds.all.map(\.spelling).joined(separator: ", ")
        return [.init(name: SettingFlag.sink, valueName: "SINK", help: "\(kinds) (default stdout); repeat for several", repeatable: true)]
            + kindOptions
            + [
                .init(name: SettingFlag.caFile, valueName: "PEM", help: "network sinks: trust these CAs instead of the system store"),
                .init(name: "--spool", valueName: "DIR", help: "network sinks: undelivered starts/ends kept here for the next run (default ~/.local/state/hrbridge/spool)"),
                .init(name: "--sink-grace", valueName: "S", help: "at exit, keep delivering this long before spooling (default \(Int(SinkSet.defaultGrace)))"),
                .init(name: "--sink-status", valueName: "S", help: "log each sink's counters at most every S seconds"),
            ]
    }()

    /// One flag per way each kind's option can be given, in the kinds' order; a shared setting (the
    /// APNs team key) once, under the first kind that has it.
    static let kindOptions: [CommandSpec.Option] = {
        var seen: Set<String> = []
        return SinkKinds.all.flatMap { kind in
            kind.options.flatMap { option -> [CommandSpec.Option] in
                guard let flag = option.flag else { return [] }
                let ways = option.secretWays
                guard !ways.isEmpty else {
                    return [.init(name: flag, valueName: option.valueName(), help: "\(kind.name): \(option.help)")]
                }
                return ways.map { way in
                    let holder = way == .file ? "file holding" : "environment variable holding"
                    return .init(name: option.flags[ways.firstIndex(of: way)!], valueName: option.valueName(for: way),
                                 help: "\(kind.name): \(holder) \(option.help)")
                }
            }
        }.filter { seen.insert($0.name).inserted }
    }()

    /// Every flag that sets a sink kind's option (a run from a configuration file must not mix them in).
    static let kindFlags: [String] = kindOptions.map(\.name)

    /// The sinks the `--sink` flags ask for, each with its options from the flags, validated.
    static func requested(_ arguments: ParsedArguments, spec: CommandSpec) throws(CLIError) -> [SinkSettings] {
        var selected: [(kind: SinkKind, carried: (String, SinkValue)?)] = []
        for text in arguments.allValues(SettingFlag.sink) {
            let (kind, carried) = try select(text, spec: spec)
            if !kind.repeatable, selected.contains(where: { $0.kind.name == kind.name }) {
                throw .usage("--sink \(text) given more than once", spec)
            }
            selected.append((kind, carried))
        }
        var requested: [SinkSettings] = []
        for (kind, carried) in selected {
            var values = try flagValues(of: kind, arguments, spec: spec)
            if let (key, value) = carried { values[key] = value }
            if let group = kind.conflicts(in: values).first {
                let flags = group.compactMap { key in kind.option(key)?.flags.first { arguments.value($0) != nil } }
                throw .usage("\(flags.joined(separator: " and ")) exclude each other", spec)
            }
            if let group = kind.missing(in: values).first {
                let flags = group.flatMap { kind.option($0)?.flags ?? [] }
                throw .usage("--sink \(kind.spelling) needs \(flags.alternatives)", spec)
            }
            requested.append(SinkSettings(kind: kind.name, values: values))
        }
        let usable = Set(selected.flatMap { $0.kind.options.flatMap(\.flags) })
        for flag in kindFlags where !usable.contains(flag) && (arguments.value(flag) != nil || arguments.has(flag)) {
            let kinds = SinkKinds.all.filter { $0.options.contains { $0.flags.contains(flag) } }.map { "--sink " + $0.spelling }
            throw .usage("\(flag) is for \(kinds.alternatives), which is not given", spec)
        }
        return requested.isEmpty ? [SinkSettings(kind: SinkKind.standardOutput.name, values: SinkValues())] : requested
    }

    /// The kind a `--sink` value names, and the option value it carries (a path, a URL).
    private static func select(_ text: String, spec: CommandSpec) throws(CLIError) -> (SinkKind, (String, SinkValue)?) {
        for kind in SinkKinds.all {
            let carried: String
            switch kind.selector {
            case let .word(word):
                guard text == word else { continue }
                return (kind, nil)
            case let .prefix(prefix, _):
                guard text.startsWithScalars(of: prefix) else { continue }
                carried = String(text.unicodeScalars.dropFirst(prefix.unicodeScalars.count))
            case let .wordWithValue(word, _):
                if text == word { return (kind, nil) }
                guard text.startsWithScalars(of: word + ":") else { continue }
                carried = String(text.unicodeScalars.dropFirst(word.unicodeScalars.count + 1))
            case let .url(schemes, _):
                guard schemes.contains(where: { text.lowercased().startsWithScalars(of: $0 + "://") }) else { continue }
                carried = text
            }
            let option = kind.option(kind.selectorOption!)!
            switch option.value.read(carried, from: .commandLine) {
            case let .success(.text(path)) where option.value.isPath && !path.startsWithScalars(of: "/"):
                // Against the working directory: the sink's name holds the path, the state file records
                // the name, and a later run (or `recover`) started elsewhere must find the same file.
                return (kind, (option.key, .text(FileManager.default.currentDirectoryPath + "/" + path)))
            case let .success(value): return (kind, (option.key, value))
            case .failure(.credentialsInURL):
                let secrets = kind.options.flatMap { $0.secretWays.isEmpty ? [] : $0.flags }
                throw .usage("--sink '\(text)': no credentials in the URL; use \(secrets.alternatives)", spec)
            case let .failure(problem):
                throw .usage("--sink '\(text)': \(problem.message)", spec)
            }
        }
        throw .usage("--sink '\(text)': expected \(SinkKinds.all.map(\.spelling).joined(separator: ", "))", spec)
    }

    /// The values the kind's flags give.
    private static func flagValues(of kind: SinkKind, _ arguments: ParsedArguments, spec: CommandSpec) throws(CLIError) -> SinkValues {
        var values = SinkValues()
        for option in kind.options {
            let ways = option.secretWays
            if !ways.isEmpty {
                let given = zip(ways, option.flags).filter { arguments.value($0.1) != nil }
                guard given.count <= 1 else { throw .usage("\(given.map(\.1).joined(separator: " and ")) exclude each other", spec) }
                guard let (way, flag) = given.first, let text = arguments.value(flag) else { continue }
                let result = way == .environment ? option.value.readEnvironmentName(text) : option.value.read(text, from: .commandLine)
                values[option.key] = try value(result, flag: flag, text: text, spec: spec)
            } else if let flag = option.flag {
                if case .toggle = option.value {
                    if arguments.has(flag) { values[option.key] = .toggle(true) }
                } else if let text = arguments.value(flag) {
                    values[option.key] = try value(option.value.read(text, from: .commandLine), flag: flag, text: text, spec: spec)
                }
            }
        }
        return values
    }

    private static func value(_ result: Result<SinkValue, SinkValueProblem>, flag: String, text: String, spec: CommandSpec) throws(CLIError) -> SinkValue {
        switch result {
        case let .success(value): return value
        case let .failure(problem): throw .usage("\(flag) '\(text)': \(problem.message)", spec)
        }
    }

    static func seconds(_ arguments: ParsedArguments, _ name: String, default value: Double?, spec: CommandSpec) throws(CLIError) -> Double? {
        guard let text = arguments.value(name) else { return value }
        guard let seconds = Double(text), seconds >= 0, seconds.isFinite else {
            throw .usage("\(name) '\(text)' is not a number of seconds", spec)
        }
        return seconds
    }

    /// `--spool`, else `spool` in the state directory (`$STATE_DIRECTORY`, `$XDG_STATE_HOME/hrbridge`
    /// or `~/.local/state/hrbridge`).
    static func spoolDirectory(_ arguments: ParsedArguments) -> String {
        arguments.value("--spool") ?? StateDirectory.path() + "/spool"
    }
}
