import Foundation
import TestSupport

/// The built `hrbridge` binary as a child process, its stdout and stderr collected as they come,
/// so a test can wait for a line, send a signal and check how the process ended.
public final class BridgeProcess: @unchecked Sendable {
    public let process: Process
    private let lock = NSLock()
    private var outputBytes: [UInt8] = []
    private var logBytes: [UInt8] = []
    private var readers: [Thread] = []
    private let readersDone = DispatchGroup()

    /// `hrbridge` beside the test bundle (`swift build --build-tests` builds both into one directory).
    public static var executable: String {
        let bundle = URL(fileURLWithPath: (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0])
        var directory = bundle.deletingLastPathComponent()
        // The runner may be inside the .xctest bundle or be it.
        while !FileManager.default.isExecutableFile(atPath: directory.appendingPathComponent("hrbridge").path), directory.path != "/" {
            directory.deleteLastPathComponent()
        }
        return directory.appendingPathComponent("hrbridge").path
    }

    /// `environment`: the child's whole environment (nil: this process's). `executable`: another
    /// program that runs hrbridge itself (systemd-socket-activate).
    public init(_ arguments: [String], environment: [String: String]? = nil, executable: String = BridgeProcess.executable) throws {
        process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        if let environment { process.environment = environment }
        let output = Pipe()
        let log = Pipe()
        process.standardOutput = output
        process.standardError = log
        process.standardInput = FileHandle.nullDevice
        try process.run()
        collect(output.fileHandleForReading, toLog: false)
        collect(log.fileHandleForReading, toLog: true)
    }

    public var output: String { lock.withLock { String(decoding: outputBytes, as: UTF8.self) } }
    public var log: String { lock.withLock { String(decoding: logBytes, as: UTF8.self) } }
    public var outputLines: [String] { output.split(separator: "\n").map(String.init) }

    /// Waits (checking every 20 ms) until `condition` holds; false after `timeout` seconds.
    public func wait(timeout: Double, until condition: () -> Bool) -> Bool {
        let deadline = Date(timeIntervalSinceNow: timeout)
        while !condition() {
            guard Date() < deadline else { return false }
            usleep(20_000)
        }
        return true
    }

    public func send(_ signal: Int32) { kill(process.processIdentifier, signal) }

    /// The exit status (or 128 + the signal that killed it), after the process ended and its output
    /// was read to the end; nil if it still runs after `timeout` seconds (then it is killed).
    public func exitStatus(timeout: Double) -> Int32? {
        guard wait(timeout: timeout, until: { !process.isRunning }) else {
            send(SIGKILL)
            process.waitUntilExit()
            return nil
        }
        process.waitUntilExit()
        readersDone.wait()
        return process.terminationReason == .uncaughtSignal ? 128 + process.terminationStatus : process.terminationStatus
    }

    private func collect(_ handle: FileHandle, toLog: Bool) {
        readersDone.enter()
        let thread = Thread { [self] in
            while true {
                let chunk = handle.availableData
                if chunk.isEmpty { break }
                lock.withLock {
                    if toLog { logBytes.append(contentsOf: chunk) } else { outputBytes.append(contentsOf: chunk) }
                }
            }
            readersDone.leave()
        }
        thread.start()
        readers.append(thread)
    }

    deinit {
        if process.isRunning {
            send(SIGKILL)
            process.waitUntilExit()
        }
    }
}

extension BridgeProcess {
    /// 1 Hz samples climbing 3 bpm a second: a start, then a `changed` update every 3 s or so.
    public static func climbingTrace(in directory: TemporaryDirectory, seconds: Int = 60) throws -> String {
        var text = "hrbridge-trace 1 start=2024-01-01T06:00:00Z\n0 connected\n"
        for second in 0..<seconds {
            let rate = 90 + 3 * second % 100
            text += "\(second * 1_000_000) notify 2a37 06\(String(format: "%02x", rate))\n"
        }
        return try directory.write("climb.trace", text)
    }

    /// An output line as the object it holds (empty when it is none).
    public static func json(_ line: String) -> [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any] ?? [:]
    }
}
