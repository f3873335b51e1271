/// One thing wrong with a configuration value: where, and what was expected instead.
public struct ConfigIssue: Sendable, Equatable, CustomStringConvertible {
    public var path: ConfigPath
    public var message: String

    public var description: String { "\(path): \(message)" }
}

/// Collects every issue in a file, so one `config check` run lists them all.
final class IssueLog {
    private(set) var issues: [ConfigIssue] = []
    /// The lines reported so far, to find a repeat by hashing: searching `issues` for each new one
    /// made a file of many wrong items quadratic (minutes for 1 MiB of `[1,1,…]`). Their UTF-8 bytes,
    /// because String's == takes the lines of two keys that only look alike ("é", "e\u{301}") for one.
    private(set) var reported: Set<[UInt8]> = []

    /// Records the issue once (a file-wide cadence problem is found again for every strap).
    func report(_ path: ConfigPath, _ message: String) {
        let issue = ConfigIssue(path: path, message: message)
        if reported.insert(Array(issue.description.utf8)).inserted { issues.append(issue) }
    }
}
