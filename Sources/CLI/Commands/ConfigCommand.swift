import Config
import FoundationEssentials
import Forwarding

/// `hrbridge config check`: validates a configuration file and prints it as it will be used.
enum ConfigCommand {
    static let spec = CommandSpec(
        name: "config",
        summary: "Check a configuration file and print the effective configuration.",
        options: [
            .init(name: "--config", valueName: "PATH",
                  help: "the file (default: \(ConfigurationFile.systemPath), else ~/.config/hrbridge/config.json)"),
        ],
        positionals: [
            .init(name: "ACTION", help: "check: validate the file and print the effective configuration"),
        ],
        details: """
        Every problem is listed as FILE: KEY.PATH: what was expected, and the exit status is 65.
        The output is JSON: each strap with its activity settings and every cadence parameter it will
        run with (the engine's defaults, the file's cadence over them, the strap's own over that; see
        'hrbridge replay --help' for what each means). Secrets are shown as the files they are read
        from (an absolute path or credential:NAME, a file systemd passes in with LoadCredential=
        from /etc/hrbridge/credentials); a warning names each one that is not readable. Their
        contents are never read here.

        Example:
          hrbridge config check --config /etc/hrbridge/config.json
        """
    )

    static func run(_ arguments: ParsedArguments, console: Console) throws(CLIError) {
        guard arguments.positionals.first == "check" else {
            throw .usage("unknown config action '\(arguments.positionals[0])' (supported: check)", spec)
        }
        let configuration: BridgeConfiguration
        let path: String
        do {
            path = try ConfigurationFile.locate(explicit: arguments.value("--config"),
                                                environment: ProcessInfo.processInfo.environment)
            configuration = try ConfigurationFile.load(path: path, kinds: SinkKinds.catalog)
        } catch {
            throw error.asCLIError
        }
        console.output.write(ConfigurationReader.effectiveJSON(configuration, kinds: SinkKinds.catalog))
        let count = configuration.straps.count
        console.warn("\(path): valid, \(count) strap\(count == 1 ? "" : "s")")
        // Missing secrets are the service's problem at start, not the file's: warn, stay valid.
        for problem in ReferencedFiles.problems(configuration, kinds: SinkKinds.catalog, environment: ProcessInfo.processInfo.environment) {
            console.warn("warning: \(problem)")
        }
    }
}

extension ConfigError {
    var asCLIError: CLIError {
        switch self {
        case .notFound, .unreadable: .noInput(description)
        case .syntax, .invalid: .dataError(description)
        }
    }
}
