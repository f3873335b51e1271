import Foundation

/// `dbus-send --print-reply`, an independent client for testing what we serve.
public enum DBusSend {
    public struct Result: Sendable {
        public var status: Int32
        public var output: String
        public var error: String
    }

    /// Calls `interface.method` on `destination` `path` with dbus-send's typed arguments (`int32:2`).
    public static func call(_ address: String, _ destination: String, _ path: String, _ member: String, _ arguments: [String] = []) throws -> Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/dbus-send")
        process.arguments = ["--bus=\(address)", "--print-reply", "--reply-timeout=5000", "--dest=\(destination)", path, member] + arguments
        let output = Pipe()
        let error = Pipe()
        process.standardOutput = output
        process.standardError = error
        try process.run()
        let out = output.fileHandleForReading.readDataToEndOfFile()
        let err = error.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Result(status: process.terminationStatus, output: String(decoding: out, as: UTF8.self), error: String(decoding: err, as: UTF8.self))
    }
}
