import Dispatch
import Foundation

/// A program run to its end: its exit status, stdout and stderr.
public struct FinishedProcess: Sendable {
    public var status: Int32
    public var output: String
    public var error: String

    public init(_ executable: String, _ arguments: [String], environment: [String: String] = ProcessInfo.processInfo.environment) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = environment
        let output = Pipe()
        let error = Pipe()
        process.standardOutput = output
        process.standardError = error
        try process.run()
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        let errorData = error.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        status = process.terminationStatus
        self.output = String(decoding: outputData, as: UTF8.self)
        self.error = String(decoding: errorData, as: UTF8.self)
    }
}

/// `dbus-send --print-reply`, an independent client for testing what we serve.
public enum DBusSend {
    /// Calls `interface.method` on `destination` `path` with dbus-send's typed arguments (`int32:2`).
    public static func call(_ address: String, _ destination: String, _ path: String, _ member: String,
                            _ arguments: [String] = []) throws -> FinishedProcess {
        try FinishedProcess("/usr/bin/dbus-send", ["--bus=\(address)", "--print-reply", "--reply-timeout=5000",
                                                   "--dest=\(destination)", path, member] + arguments)
    }
}

/// Runs blocking work (a child process waited for) on a Dispatch thread, so that it holds none
/// of Swift's cooperative threads (two on a 2-core machine), which other suites' links need.
public func offThePool<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        DispatchQueue.global().async { continuation.resume(with: Result { try work() }) }
    }
}

/// Every thread's stack of a hung child (gdb, when installed), for the error that reports the hang.
public func threadStacks(of pid: Int32) -> String {
    guard FileManager.default.isExecutableFile(atPath: "/usr/bin/gdb") else { return "(install gdb to see them)" }
    let stacks = try? FinishedProcess("/usr/bin/timeout", ["60", "/usr/bin/gdb", "-p", "\(pid)", "-batch", "-nx", "-ex", "thread apply all bt"])
    return stacks.map { $0.output + $0.error } ?? "(gdb did not run)"
}
