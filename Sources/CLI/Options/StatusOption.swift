import FoundationEssentials

/// `--no-status` for run and paced replay: the sensors' status lines at the bottom of the terminal.
enum StatusOption {
    static let specOption = CommandSpec.Option(
        name: "--no-status", valueName: nil,
        help: "no status lines at the bottom of the terminal (shown when stderr is a terminal)"
    )

    /// The block for the console's terminal, already shown there (log lines go above it), unless
    /// `--no-status` or stderr is no terminal; the caller says what to draw (`follow`) once its
    /// sessions exist, and hides it (`console.hideStatus()`) at the end.
    static func show(_ arguments: ParsedArguments, console: Console) -> TerminalStatus? {
        guard !arguments.has("--no-status"),
              let status = TerminalStatus.forTerminal(log: console.log, environment: ProcessInfo.processInfo.environment)
        else { return nil }
        console.showStatus(status)
        return status
    }
}
