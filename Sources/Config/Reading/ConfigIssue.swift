/// One thing wrong with a configuration value: where, and what was expected instead.
public struct ConfigIssue: Sendable, Hashable, CustomStringConvertible {
    public var path: ConfigPath
    public var message: String

    public var description: String { "\(path): \(message)" }
}

/// Collects every issue in a file, so one `config check` run lists them all.
final class IssueLog {
    private(set) var issues: [ConfigIssue] = []
    /// The issues reported so far, to find a repeat by hashing: searching `issues` for each new one
    /// made a file of many wrong items quadratic (minutes for 1 MiB of `[1,1,…]`).
    private(set) var reported: Set<ConfigIssue> = []

    /// Records the issue once (a file-wide cadence problem is found again for every strap).
    func report(_ path: ConfigPath, _ message: String) {
        let issue = ConfigIssue(path: path, message: message)
        if reported.insert(issue).inserted { issues.append(issue) }
    }
}
