import FoundationEssentials
import Platform

/// What one sink option was given. Secrets are where to read them, never their contents.
public enum SinkValue: Sendable, Hashable {
    case text(String)
    case number(Double)
    case toggle(Bool)
    case secret(SecretSource)
}

/// Where a secret is read from when its sink starts.
public enum SecretSource: Sendable, Hashable {
    case file(FileReference)
    case environment(String)
}

/// The values a sink's options were given, by option key.
public struct SinkValues: Sendable, Hashable {
    public private(set) var byKey: [String: SinkValue]

    public init(_ byKey: [String: SinkValue] = [:]) {
        self.byKey = byKey
    }

    public subscript(key: String) -> SinkValue? {
        get { byKey[key] }
        set { byKey[key] = newValue }
    }

    public func text(_ key: String) -> String? {
        if case let .text(text)? = byKey[key] { text } else { nil }
    }

    public func number(_ key: String) -> Double? {
        if case let .number(number)? = byKey[key] { number } else { nil }
    }

    public func toggle(_ key: String) -> Bool {
        if case let .toggle(on)? = byKey[key] { on } else { false }
    }

    public func secret(_ key: String) -> SecretSource? {
        if case let .secret(source)? = byKey[key] { source } else { nil }
    }

    /// These values with `shared`'s for the keys these lack (a kind's team settings under a sink's own).
    public func merging(_ shared: SinkValues) -> SinkValues {
        SinkValues(byKey.merging(shared.byKey) { own, _ in own })
    }
}

/// Where the value came from: the configuration file insists on absolute paths and on secrets in
/// files it can name; a flag is read relative to the shell that gave it.
public enum SinkValueOrigin: Sendable {
    case commandLine
    case configuration
}

extension SinkOption.Value {
    /// The value `text` stands for (a flag's argument, a string in the file, a number's text), or
    /// what was expected instead.
    public func read(_ text: String, from origin: SinkValueOrigin) -> Result<SinkValue, SinkValueProblem> {
        switch self {
        case let .text(rule):
            return rule.accepts(text) ? .success(.text(text)) : .failure(.expected("\(rule.expected), got \(text.jsonQuoted)"))
        case .url:
            return Self.httpURLProblem(text).map { .failure($0) } ?? .success(.text(text))
        case .path:
            guard !text.isEmpty else { return .failure(.expected("a path, got \"\"")) }
            if origin == .configuration, !text.startsWithScalars(of: "/") {
                return .failure(.expected("an absolute path, got \(text.jsonQuoted)"))
            }
            return .success(.text(text))
        case .secret:
            do {
                return .success(.secret(.file(try FileReference(parsing: text, from: origin))))
            } catch {
                return .failure(.expected(error.message.dropExpected))
            }
        case let .number(range, unit):
            guard let number = Double(text), number.isFinite else { return .failure(.expected("a number of \(unit), got \(text.jsonQuoted)")) }
            guard range.contains(number) else {
                return .failure(.expected("\(unit) from \(Self.format(range.lowerBound)) to \(Self.format(range.upperBound)), got \(text)"))
            }
            return .success(.number(number))
        case .toggle:
            switch text {
            case "true": return .success(.toggle(true))
            case "false": return .success(.toggle(false))
            default: return .failure(.expected("true or false, got \(text.jsonQuoted)"))
            }
        case let .server(names):
            if names.contains(where: { $0.name == text }) { return .success(.text(text)) }
            if Self.httpURLProblem(text) == nil { return .success(.text(text)) }
            return .failure(.expected("\(names.map(\.name).joined(separator: ", ")) or an https URL, got \(text.jsonQuoted)"))
        case let .numberInObject(_, choices):
            guard let number = Int(text), choices.contains(where: { $0.number == number }) else {
                return .failure(.expected("\(Self.describe(choices)), got \(text.jsonQuoted)"))
            }
            return .success(.number(Double(number)))
        }
    }

    /// `0 (what it means) or 1 (what it means)`.
    public static func describe(_ choices: [SinkOption.Choice]) -> String {
        choices.map { "\($0.number) (\($0.meaning))" }.alternatives
    }

    /// A secret's environment variable: a name the shell could export.
    public func readEnvironmentName(_ text: String) -> Result<SinkValue, SinkValueProblem> {
        let valid = !text.isEmpty && text.unicodeScalars.allSatisfy { $0.isASCIILetterOrDigit || $0 == "_" }
            && !("0"..."9").contains(text.unicodeScalars.first!)
        return valid ? .success(.secret(.environment(text))) : .failure(.expected("an environment variable name, got \(text.jsonQuoted)"))
    }

    /// An absolute http(s) URL with a host. Credentials inside a URL would end up in logs and in
    /// `config check` output, so they are refused: tokens belong in files.
    static func httpURLProblem(_ text: String) -> SinkValueProblem? {
        guard let components = URLComponents(string: text),
              let scheme = components.scheme?.lowercased(), scheme == "https" || scheme == "http",
              let host = components.host, !host.isEmpty
        else { return .expected("an https or http URL, got \(text.jsonQuoted)") }
        guard components.user == nil, components.password == nil else {
            return .credentialsInURL
        }
        return nil
    }

    static func format(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }
}

/// Why a value was refused; the command line and the file each say it their way.
public enum SinkValueProblem: Error, Sendable, Equatable {
    /// "expected …, got …".
    case expected(String)
    /// user:password in a URL.
    case credentialsInURL

    public var message: String {
        switch self {
        case let .expected(text): "expected \(text)"
        case .credentialsInURL: "expected a URL without user:password (put the token in a file)"
        }
    }
}

private extension String {
    /// FileReference's messages start with "expected "; the problem adds it back.
    var dropExpected: String {
        hasPrefix("expected ") ? String(dropFirst("expected ".count)) : self
    }
}
