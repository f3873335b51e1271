import FoundationEssentials

/// Where hrbridge keeps what must outlive a run (the activity state files, the sinks' spool):
/// systemd's `$STATE_DIRECTORY` (its first entry; /var/lib/hrbridge under the unit), else
/// `$XDG_STATE_HOME/hrbridge`, else `~/.local/state/hrbridge` (the XDG default).
public enum StateDirectory {
    public static func path(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let state = environment["STATE_DIRECTORY"]?.split(separator: ":").first { return String(state) }
        if let xdg = environment["XDG_STATE_HOME"], xdg.hasPrefix("/") { return xdg + "/hrbridge" }
        return (environment["HOME"] ?? "/tmp") + "/.local/state/hrbridge"
    }
}
