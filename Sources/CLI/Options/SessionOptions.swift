import SessionState

/// The flags of a live session, shared by paced `replay` and `run`.
enum SessionOptions {
    static let specOptions: [CommandSpec.Option] = [
        .init(name: "--state-dir", valueName: "DIR", help: "keep the activity state file here (default: the state directory)"),
    ]

    /// `--state-dir`, else `$STATE_DIRECTORY`, `$XDG_STATE_HOME/hrbridge` or `~/.local/state/hrbridge`.
    static func stateDirectory(_ arguments: ParsedArguments) -> String {
        arguments.value("--state-dir") ?? StateDirectory.path()
    }
}
