/// One setting of a sink kind, described once for everyone who sets it: the configuration file's key,
/// the command-line flag, what it holds and a one-line help. `hrbridge run|replay --help`, the flag
/// parser, the configuration reader, `config check` and its list of referenced files are all made
/// from these descriptions (`SinkKind.options`), so a setting cannot reach one and miss another.
public struct SinkOption: Sendable {
    public enum Value: Sendable {
        /// Text that `rule` accepts (an id, a name).
        case text(TextRule)
        /// An http(s) URL with a host and no user:password (those belong in a secret).
        case url
        /// A file the bridge writes. The configuration insists on an absolute path (a service has no
        /// working directory of its own); a flag may be relative to the shell's.
        case path
        /// Read when the sink starts, never printed: from a file (`credential:NAME` too) or, where
        /// `environment` allows, an environment variable. Flags `<flag>-file`/`<flag>-env`, keys
        /// `<key>File`/`<key>Environment`.
        case secret(environment: Bool)
        /// A finite number within `range`.
        case number(ClosedRange<Double>, unit: String)
        /// On or off: a flag without a value, `true`/`false` in the file.
        case toggle
        /// One of the named servers (`production` → its URL) or any http(s) URL (a local server).
        case server(names: [(name: String, url: String)])
        /// One of `choices`, a whole number, which the file holds in an object under `field`
        /// (`"broadcast": {"storagePolicy": 1}`: the setting can gain keys of its own there) and the
        /// flag takes alone (`--apns-broadcast 1`).
        case numberInObject(field: String, choices: [Choice])
    }

    /// One number a `numberInObject` setting may hold, and what it means (for help and messages).
    public struct Choice: Sendable {
        public let number: Int
        public let meaning: String

        public init(_ number: Int, _ meaning: String) {
            self.number = number
            self.meaning = meaning
        }
    }

    /// What `.text` accepts, and how to say so.
    public struct TextRule: Sendable {
        public let expected: String
        public let accepts: @Sendable (String) -> Bool

        public init(expected: String, accepts: @escaping @Sendable (String) -> Bool) {
            self.expected = expected
            self.accepts = accepts
        }
    }

    public enum Scope: Sendable, Equatable {
        /// Each sink has its own (a device token).
        case sink
        /// Every sink of the kinds naming this object shares it: the configuration file holds it once,
        /// in a top-level object of that name (`"apns": {"keyFile": …}`), as a team's account settings
        /// that Live Activity pushes and background pushes both sign with.
        case shared(String)
    }

    /// The configuration key (the base name for a secret: `token` → `tokenFile`, `tokenEnvironment`).
    public let key: String
    /// The flag (the base name for a secret: `--token` → `--token-file`, `--token-env`); nil for the
    /// setting that `--sink` itself carries (the URL in `--sink https://…`).
    public let flag: String?
    public let value: Value
    public let scope: Scope
    public let required: Bool
    public let help: String

    public init(key: String, flag: String?, _ value: Value, scope: Scope = .sink, required: Bool = false, help: String) {
        self.key = key
        self.flag = flag
        self.value = value
        self.scope = scope
        self.required = required
        self.help = help
    }
}

extension SinkOption {
    /// How a secret is given: each way has its own key and flag.
    public enum SecretWay: Sendable, CaseIterable {
        case file
        case environment

        var keySuffix: String { self == .file ? "File" : "Environment" }
        var flagSuffix: String { self == .file ? "-file" : "-env" }
    }

    /// The ways this option can be given: one, or for a secret its file and (if allowed) its variable.
    /// The top-level object holding it, if it is shared.
    public var sharedObject: String? {
        if case let .shared(name) = scope { name } else { nil }
    }

    public var secretWays: [SecretWay] {
        guard case let .secret(environment) = value else { return [] }
        return environment ? [.file, .environment] : [.file]
    }

    /// Every key the configuration file may hold for it.
    public var configKeys: [String] {
        let ways = secretWays
        return ways.isEmpty ? [key] : ways.map { key + $0.keySuffix }
    }

    /// Every flag the command line accepts for it (none for the one `--sink` carries).
    public var flags: [String] {
        guard let flag else { return [] }
        let ways = secretWays
        return ways.isEmpty ? [flag] : ways.map { flag + $0.flagSuffix }
    }

    /// How `--help` names the flag's value.
    public func valueName(for way: SecretWay? = nil) -> String? {
        switch value {
        case .text: "TEXT"
        case .url: "URL"
        case .path: "PATH"
        case .secret: way == .environment ? "NAME" : "FILE"
        case .number: "N"
        case .toggle: nil
        case let .server(names): (names.map(\.name) + ["URL"]).joined(separator: "|")
        case let .numberInObject(_, choices): choices.map { String($0.number) }.joined(separator: "|")
        }
    }
}

extension SinkOption.Value {
    /// Whether it names a file the bridge writes.
    public var isPath: Bool { if case .path = self { true } else { false } }
}
