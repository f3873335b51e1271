/// What a kind of sink is, as everyone who sets one up sees it: how `--sink` names it, its settings
/// (`SinkOption`), which of them it cannot do without. The command line's flags and `--help`, the
/// configuration file's sink objects, `config check` and the secrets it lists all come from this
/// description. Forwarding pairs each description with the code that builds the sink (`SinkKind`);
/// the configuration reader takes the descriptions alone (`SinkCatalog`), so it needs none of that code.
public struct SinkDescription: Sendable {
    /// How a `--sink` value picks this kind.
    public enum Selector: Sendable {
        /// `--sink apns`: the settings come from flags, so the kind can be given once.
        case word(String)
        /// `--sink file:PATH`: the text after the prefix is option `option`'s value.
        case prefix(String, option: String)
        /// `--sink https://…`: the whole text is option `option`'s value (a URL).
        case url(schemes: [String], option: String)
        /// `--sink ble-heart-rate` or `--sink ble-heart-rate:NAME`: the word alone, or with option
        /// `option`'s value after a colon.
        case wordWithValue(String, option: String)
    }

    /// The configuration's `"type"`, and how messages name the kind.
    public let name: String
    public let selector: Selector
    /// What `--sink` help says it does.
    public let summary: String
    public let options: [SinkOption]
    /// Groups of option keys of which at least one must be given (apns: a device or a push-to-start token).
    public let atLeastOne: [[String]]
    /// Groups of option keys of which at most one may be given (airship: a master secret or a token).
    public let atMostOne: [[String]]

    public init(name: String, selector: Selector, summary: String, options: [SinkOption], atLeastOne: [[String]] = [],
                atMostOne: [[String]] = []) {
        self.name = name
        self.selector = selector
        self.summary = summary
        self.options = options
        self.atLeastOne = atLeastOne
        self.atMostOne = atMostOne
    }

    /// The top-level configuration object its shared settings live in (`apns`), if any.
    public var sharedObject: String? {
        options.lazy.compactMap(\.sharedObject).first
    }

    /// Its own settings: each sink of it has its own values.
    public var ownOptions: [SinkOption] { options.filter { $0.scope == .sink } }

    public func option(_ key: String) -> SinkOption? {
        options.first { $0.key == key }
    }

    /// How `--sink` spells it: `apns`, `file:PATH`, `https://…`.
    public var spelling: String {
        switch selector {
        case let .word(word): word
        case let .prefix(prefix, _): prefix + "PATH"
        case let .url(schemes, _): schemes.map { $0 + "://…" }.joined(separator: " or ")
        case let .wordWithValue(word, option): word + "[:" + option.uppercased() + "]"
        }
    }

    /// The option `--sink` fills in itself, if any.
    public var selectorOption: String? {
        switch selector {
        case .word: nil
        case let .prefix(_, option), let .url(_, option), let .wordWithValue(_, option): option
        }
    }

    /// Whether it can be given more than once (each with its own path or URL).
    public var repeatable: Bool { selectorOption != nil }

    /// What is missing from `values`: required options, then unmet at-least-one groups.
    public func missing(in values: SinkValues) -> [[String]] {
        options.filter { $0.required && values[$0.key] == nil }.map { [$0.key] }
            + atLeastOne.filter { group in group.allSatisfy { values[$0] == nil } }
    }

    /// The options of each at-most-one group that `values` gives more than one of.
    public func conflicts(in values: SinkValues) -> [[String]] {
        atMostOne.map { group in group.filter { values[$0] != nil } }.filter { $0.count > 1 }
    }
}

/// A sink as the user asked for it: its kind and what its options were given.
public struct SinkSettings: Sendable, Hashable {
    public let kind: String
    public var values: SinkValues

    public init(kind: String, values: SinkValues) {
        self.kind = kind
        self.values = values
    }
}

extension Array where Element == String {
    /// "a", "a or b", "a, b or c": how messages offer the ways to give a setting.
    public var alternatives: String {
        count <= 2 ? joined(separator: " or ") : dropLast().joined(separator: ", ") + " or " + last!
    }
}
