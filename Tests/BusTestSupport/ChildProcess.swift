import Foundation
import Glibc

/// A helper process for a test (a Python D-Bus peer, the fake bluetoothd): started with the
/// private bus in its environment; `start` returns once it prints its first line (its
/// "ready" signal), so tests never sleep to wait for it. Its stderr goes to the test's.
public final class ChildProcess: @unchecked Sendable {
    public let process = Process()
    private let output = Pipe()
    public private(set) var firstLine = ""

    public init(_ executable: String, _ arguments: [String], environment: [String: String]) {
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = environment
        process.standardOutput = output
    }

    @discardableResult
    public func start() throws -> ChildProcess {
        try process.run()
        guard let line = Self.readLine(from: output.fileHandleForReading) else {
            throw TestSupportError("\(process.executableURL!.path) \(process.arguments!.joined(separator: " ")) exited before it was ready")
        }
        firstLine = line
        return self
    }

    /// Further lines the child prints (blocking; for short replies to commands).
    public func nextLine() -> String? { Self.readLine(from: output.fileHandleForReading) }

    public func stop() {
        Self.kill(process)
    }

    /// SIGKILL, because children inherit the test runner's signal mask, which blocks SIGTERM.
    static func kill(_ process: Process) {
        guard process.isRunning else { return }
        Glibc.kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    deinit { stop() }

    static func readLine(from handle: FileHandle) -> String? {
        var bytes: [UInt8] = []
        while true {
            let chunk = handle.readData(ofLength: 1)
            guard let byte = chunk.first else { return bytes.isEmpty ? nil : String(decoding: bytes, as: UTF8.self) }
            if byte == UInt8(ascii: "\n") { return String(decoding: bytes, as: UTF8.self) }
            bytes.append(byte)
        }
    }
}
