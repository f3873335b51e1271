import Forwarding
import Foundation
import Sensors
import Session

/// The `--sink` flags shared by `replay` (and `run`): where updates go and what each sink needs.
/// Secrets never come from argv: the lifecycle token from a file or an environment variable, the
/// APNs key from its .p8 file.
enum SinkOptions {
    static let specOptions: [CommandSpec.Option] = [
        .init(name: "--sink", valueName: "SINK", help: "stdout (default), file:PATH, a lifecycle server URL, or apns; repeat for several", repeatable: true),
        .init(name: "--token-file", valueName: "PATH", help: "lifecycle server: file holding the bearer token"),
        .init(name: "--token-env", valueName: "NAME", help: "lifecycle server: environment variable holding the bearer token"),
        .init(name: "--ca-file", valueName: "PEM", help: "network sinks: trust these CAs instead of the system store"),
        .init(name: "--apns-key-file", valueName: "P8", help: "apns: the team's .p8 signing key"),
        .init(name: "--apns-key-id", valueName: "ID", help: "apns: the key's id (JWT kid)"),
        .init(name: "--apns-team-id", valueName: "ID", help: "apns: the developer team id (JWT iss)"),
        .init(name: "--apns-bundle-id", valueName: "ID", help: "apns: the app's bundle id (topic <id>.push-type.liveactivity)"),
        .init(name: "--apns-device-token", valueName: "HEX", help: "apns: the activity's push token, for updates and the end"),
        .init(name: "--apns-start-token", valueName: "HEX", help: "apns: a push-to-start token; the start becomes a push-to-start"),
        .init(name: "--apns-url", valueName: "URL", help: "apns: push server base URL (default \(APNsSinkSettings.productionURL))"),
        .init(name: "--sandbox", valueName: nil, help: "apns: use \(APNsSinkSettings.sandboxURL)"),
        .init(name: "--apns-relevance-score", valueName: "N", help: "apns: relevance-score for every push"),
        .init(name: "--spool", valueName: "DIR", help: "network sinks: undelivered starts/ends kept here for the next run (default ~/.local/state/hrbridge/spool)"),
        .init(name: "--sink-grace", valueName: "S", help: "at exit, keep delivering this long before spooling (default \(Int(SinkSet.defaultGrace)))"),
        .init(name: "--sink-status", valueName: "S", help: "log each sink's counters at most every S seconds"),
    ]

    static func specs(_ arguments: ParsedArguments, spec: CommandSpec) throws(CLIError) -> [SinkSpec] {
        var specs: [SinkSpec] = []
        for text in arguments.allValues("--sink") {
            do {
                specs.append(try SinkSpec(parsing: text))
            } catch let CLIError.usage(message, _) {
                throw .usage(message, spec)
            }
        }
        guard !specs.isEmpty else { return [.standardOutput] }
        guard specs.filter({ $0 == .apns }).count <= 1 else { throw .usage("--sink apns given more than once", spec) }
        return specs
    }

    static func seconds(_ arguments: ParsedArguments, _ name: String, default value: Double?, spec: CommandSpec) throws(CLIError) -> Double? {
        guard let text = arguments.value(name) else { return value }
        guard let seconds = Double(text), seconds >= 0, seconds.isFinite else {
            throw .usage("\(name) '\(text)' is not a number of seconds", spec)
        }
        return seconds
    }

    static func tokenSource(_ arguments: ParsedArguments, spec: CommandSpec) throws(CLIError) -> BearerTokenSource? {
        switch (arguments.value("--token-file"), arguments.value("--token-env")) {
        case (nil, nil): return nil
        case let (path?, nil): return .file(path)
        case let (nil, name?): return .environment(name)
        default: throw .usage("--token-file and --token-env exclude each other", spec)
        }
    }

    /// `--spool`, else `spool` in the state directory (`$STATE_DIRECTORY`, `$XDG_STATE_HOME/hrbridge`
    /// or `~/.local/state/hrbridge`).
    static func spoolDirectory(_ arguments: ParsedArguments) -> String {
        arguments.value("--spool") ?? StateDirectory.path() + "/spool"
    }

    static func apnsSettings(_ arguments: ParsedArguments, spec: CommandSpec) throws(CLIError) -> (APNsSinkSettings, ProviderTokenSource) {
        func required(_ name: String) throws(CLIError) -> String {
            guard let value = arguments.value(name), !value.isEmpty else { throw .usage("--sink apns needs \(name)", spec) }
            return value
        }
        let keyFile = try required("--apns-key-file")
        let keyID = try required("--apns-key-id")
        let teamID = try required("--apns-team-id")
        let bundleID = try required("--apns-bundle-id")
        let device = try hexToken(arguments, "--apns-device-token", spec: spec)
        let start = try hexToken(arguments, "--apns-start-token", spec: spec)
        guard device != nil || start != nil else {
            throw .usage("--sink apns needs --apns-device-token or --apns-start-token", spec)
        }
        if arguments.has("--sandbox"), arguments.value("--apns-url") != nil {
            throw .usage("--sandbox and --apns-url exclude each other", spec)
        }
        var relevance: Double?
        if let text = arguments.value("--apns-relevance-score") {
            guard let score = Double(text), score.isFinite, score >= 0 else {
                throw .usage("--apns-relevance-score '\(text)' is not a number ≥ 0", spec)
            }
            relevance = score
        }
        let baseURL = arguments.value("--apns-url") ?? (arguments.has("--sandbox") ? APNsSinkSettings.sandboxURL : APNsSinkSettings.productionURL)
        let key: SigningKey
        do {
            key = try SigningKey(contentsOfFile: keyFile)
        } catch {
            if case .unreadable = error { throw .noInput(error.description) }
            if case .libcryptoMissing = error { throw .unavailable(error.description) }
            throw .dataError(error.description)
        }
        let settings = APNsSinkSettings(baseURL: baseURL, bundleID: bundleID, deviceToken: device, pushToStartToken: start, relevanceScore: relevance)
        return (settings, ProviderTokenSource(key: key, keyID: keyID, teamID: teamID))
    }

    private static func hexToken(_ arguments: ParsedArguments, _ name: String, spec: CommandSpec) throws(CLIError) -> String? {
        guard let text = arguments.value(name) else { return nil }
        guard let token = APNsSinkSettings.normalizedToken(text) else {
            throw .usage("\(name): expected the token as hex digits", spec)
        }
        return token
    }
}
