import Foundation
import Testing

/// hrbridge run with one shared library hidden in a private mount namespace (root and unshare
/// --mount, as CI has): a network sink or the listener must say what to install.
public enum HiddenLibrary {
    /// `hrbridge ARGUMENTS` with `library` (a soname) made unreadable: /dev/null mounted over its file.
    public static func run(_ library: String, _ arguments: [String]) throws -> (status: Int32, log: String) {
        let directories = ["/usr/lib/x86_64-linux-gnu", "/usr/lib/aarch64-linux-gnu", "/usr/lib64", "/usr/lib"]
        let file = try #require(directories.map { "\($0)/\(library)" }.first { FileManager.default.fileExists(atPath: $0) })
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/unshare")
        process.arguments = ["--mount", "/bin/sh", "-c", #"mount --bind /dev/null "$(readlink -f "$0")" && exec "$@""#,
                             file, BridgeProcess.executable] + arguments
        let log = Pipe()
        process.standardError = log
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let text = String(decoding: log.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, text)
    }

    /// Whether this process may make a private mount namespace (root, util-linux's unshare).
    public static let available: Bool = {
        guard getuid() == 0, FileManager.default.isExecutableFile(atPath: "/usr/bin/unshare") else { return false }
        let probe = Process()
        probe.executableURL = URL(fileURLWithPath: "/usr/bin/unshare")
        probe.arguments = ["--mount", "true"]
        guard (try? probe.run()) != nil else { return false }
        probe.waitUntilExit()
        return probe.terminationStatus == 0
    }()
}
