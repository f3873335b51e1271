import Platform

/// The command line: `hrbridge <command> [options]`. Returns the exit status instead of exiting,
/// so tests drive it in-process.
public enum HRBridge {
    public static let version = "0.1.0"

    static let commands: [(spec: CommandSpec, run: @Sendable (ParsedArguments, Console) throws(CLIError) -> Void)] = [
        (ScanCommand.spec, ScanCommand.run),
        (RunCommand.spec, RunCommand.run),
        (RecordCommand.spec, RecordCommand.run),
        (ReplayCommand.spec, ReplayCommand.run),
        (RecoverCommand.spec, RecoverCommand.run),
        (EvaluateCommand.spec, EvaluateCommand.run),
        (PlotCommand.spec, PlotCommand.run),
        (ImportCommand.spec, ImportCommand.run),
        (ParseCommand.spec, ParseCommand.run),
        (ConfigCommand.spec, ConfigCommand.run),
        (CtlCommand.spec, CtlCommand.run),
    ]

    public static func main(_ arguments: [String]) -> Int32 {
        run(arguments, console: .standard()).rawValue
    }

    static func run(_ arguments: [String], console: Console) -> ExitCode {
        defer {
            console.output.flush()
            console.log.flush()
        }
        guard let first = arguments.first else {
            console.log.write(overview)
            return .usage
        }
        switch first {
        case "--help", "-h", "help":
            console.output.write(overview)
            return .success
        case "--version":
            console.output.write("hrbridge \(version)\n")
            return .success
        default:
            break
        }
        guard let command = commands.first(where: { $0.spec.name == first }) else {
            console.warn("unknown command '\(first)'")
            console.log.write(overview)
            return .usage
        }
        do {
            let parsed = try ParsedArguments(Array(arguments.dropFirst()), spec: command.spec)
            if parsed.wantsHelp {
                console.output.write(command.spec.helpText)
                return .success
            }
            try command.run(parsed, console)
            return .success
        } catch {
            console.output.flush()
            console.warn(error.message)
            return error.exitCode
        }
    }

    static var overview: String {
        var text = """
        hrbridge \(version): Bluetooth LE heart-rate straps to Live Activity updates.

        Usage: hrbridge <command> [options]

        Commands:

        """
        for command in commands {
            text += "  \(command.spec.name.padded(to: 10))\(command.spec.summary)\n"
        }
        text += """

        Options:
          --help     show this help ('hrbridge <command> --help' for a command's)
          --version  print the version

        Data goes to stdout, logs to stderr. Exit codes: 0 ok, 64 usage, 65 bad input data,
        66 input not readable, 69 Bluetooth (or, for ctl, the running hrbridge) not reachable:
        the message says how to fix it, 73 output not writable, 75 strap, trace or control
        name in use by another run, 130/143 stopped by SIGINT/SIGTERM (activity ended, sinks flushed).

        """
        return text
    }
}
