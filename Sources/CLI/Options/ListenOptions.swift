import Platform
import Config
import HTTPServer
import SinkVocabulary

/// `--listen HOST:PORT` and its token and TLS flags, for run and paced replay: the HTTP listener
/// (docs/http-api.md). The same settings as the configuration's `listen`; a token is a secret, so it
/// comes from a file (or `credential:NAME`) or an environment variable, never from argv.
enum ListenOptions {
    static let specOptions: [CommandSpec.Option] = [
        .init(name: SettingFlag.listen, valueName: "HOST:PORT", help: "serve health, metrics and controls over HTTP (127.0.0.1:8787; port 0: any free one)"),
        .init(name: SettingFlag.listenTokenFile, valueName: "FILE", help: "file holding the bearer token callers must send (needed off loopback)"),
        .init(name: SettingFlag.listenTokenEnvironment, valueName: "NAME", help: "environment variable holding that bearer token"),
        .init(name: SettingFlag.listenCertificate, valueName: "FILE", help: "serve HTTPS with this PEM certificate chain"),
        .init(name: SettingFlag.listenKey, valueName: "FILE", help: "…and this PEM private key"),
    ]

    static var flags: [String] { specOptions.map(\.name) }

    /// What the flags ask for; nil when none is given.
    static func parse(_ arguments: ParsedArguments, spec: CommandSpec) throws(CLIError) -> ListenSettings? {
        guard flags.contains(where: { arguments.value($0) != nil }) else { return nil }
        var settings = ListenSettings()
        if let text = arguments.value(SettingFlag.listen) {
            do {
                settings.address = try ListenAddress(parsing: text)
            } catch {
                throw .usage("\(SettingFlag.listen) '\(text)': \(error)", spec)
            }
        }
        switch (arguments.value(SettingFlag.listenTokenFile), arguments.value(SettingFlag.listenTokenEnvironment)) {
        case (.some, .some): throw .usage("\(SettingFlag.listenTokenFile) and \(SettingFlag.listenTokenEnvironment) exclude each other", spec)
        case let (file?, nil): settings.token = .file(try reference(file, SettingFlag.listenTokenFile, spec))
        case let (nil, name?):
            guard case let .success(.secret(source)) = SinkOption.Value.secret(environment: true).readEnvironmentName(name) else {
                throw .usage("\(SettingFlag.listenTokenEnvironment) '\(name)': expected an environment variable name", spec)
            }
            settings.token = source
        case (nil, nil): break
        }
        settings.certificate = try arguments.value(SettingFlag.listenCertificate).map { text throws(CLIError) in try reference(text, SettingFlag.listenCertificate, spec) }
        settings.key = try arguments.value(SettingFlag.listenKey).map { text throws(CLIError) in try reference(text, SettingFlag.listenKey, spec) }
        if let problem = settings.problem(tokenKeys: "\(SettingFlag.listenTokenFile) FILE or \(SettingFlag.listenTokenEnvironment) NAME", address: SettingFlag.listen) {
            throw .usage(problem, spec)
        }
        return settings
    }

    /// The flags' settings, or the configuration file's; both at once would leave one unsaid.
    static func merged(_ flagged: ListenSettings?, _ configured: ListenSettings?, spec: CommandSpec) throws(CLIError) -> ListenSettings? {
        if flagged != nil, configured != nil {
            throw .usage("\(SettingFlag.listen) flags and the configuration's \"listen\" exclude each other: the file says it", spec)
        }
        return flagged ?? configured
    }

    private static func reference(_ text: String, _ flag: String, _ spec: CommandSpec) throws(CLIError) -> FileReference {
        do {
            return try FileReference(parsing: text, from: .commandLine)
        } catch {
            throw .usage("\(flag) '\(text)': \(error.message)", spec)
        }
    }
}
