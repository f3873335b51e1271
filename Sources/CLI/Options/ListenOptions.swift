import Platform
import Config
import HTTPServer
import SinkVocabulary

/// `--listen HOST:PORT` and its token and TLS flags, for run and paced replay: the HTTP listener
/// (docs/http-api.md). The same settings as the configuration's `listen`; a token is a secret, so it
/// comes from a file (or `credential:NAME`) or an environment variable, never from argv.
enum ListenOptions {
    static let specOptions: [CommandSpec.Option] = [
        .init(name: "--listen", valueName: "HOST:PORT", help: "serve health, metrics and controls over HTTP (127.0.0.1:8787; port 0: any free one)"),
        .init(name: "--listen-token-file", valueName: "FILE", help: "file holding the bearer token callers must send (needed off loopback)"),
        .init(name: "--listen-token-env", valueName: "NAME", help: "environment variable holding that bearer token"),
        .init(name: "--listen-tls-cert", valueName: "FILE", help: "serve HTTPS with this PEM certificate chain"),
        .init(name: "--listen-tls-key", valueName: "FILE", help: "…and this PEM private key"),
    ]

    static var flags: [String] { specOptions.map(\.name) }

    /// What the flags ask for; nil when none is given.
    static func parse(_ arguments: ParsedArguments, spec: CommandSpec) throws(CLIError) -> ListenSettings? {
        guard flags.contains(where: { arguments.value($0) != nil }) else { return nil }
        var settings = ListenSettings()
        if let text = arguments.value("--listen") {
            do {
                settings.address = try ListenAddress(parsing: text)
            } catch {
                throw .usage("--listen '\(text)': \(error)", spec)
            }
        }
        switch (arguments.value("--listen-token-file"), arguments.value("--listen-token-env")) {
        case (.some, .some): throw .usage("--listen-token-file and --listen-token-env exclude each other", spec)
        case let (file?, nil): settings.token = .file(try reference(file, "--listen-token-file", spec))
        case let (nil, name?):
            guard case let .success(.secret(source)) = SinkOption.Value.secret(environment: true).readEnvironmentName(name) else {
                throw .usage("--listen-token-env '\(name)': expected an environment variable name", spec)
            }
            settings.token = source
        case (nil, nil): break
        }
        settings.certificate = try arguments.value("--listen-tls-cert").map { text throws(CLIError) in try reference(text, "--listen-tls-cert", spec) }
        settings.key = try arguments.value("--listen-tls-key").map { text throws(CLIError) in try reference(text, "--listen-tls-key", spec) }
        if let problem = settings.problem(tokenKeys: "--listen-token-file FILE or --listen-token-env NAME", address: "--listen") {
            throw .usage(problem, spec)
        }
        return settings
    }

    /// The flags' settings, or the configuration file's; both at once would leave one unsaid.
    static func merged(_ flagged: ListenSettings?, _ configured: ListenSettings?, spec: CommandSpec) throws(CLIError) -> ListenSettings? {
        if flagged != nil, configured != nil {
            throw .usage("--listen flags and the configuration's \"listen\" exclude each other: the file says it", spec)
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
