import BusTestSupport
import Foundation

/// `hrbridge run` as a child process: its stdout lines (Live Activity updates) read on a thread
/// of their own and taken one by one with a deadline (a guard against hanging, not a speed test).
final class RunningBridge: @unchecked Sendable {
    let process = Process()
    private let lines: StreamReader<String>
    private let logPath: String
    /// Every update line read so far.
    private(set) var updates: [[String: Any]] = []

    /// stderr goes to `logPath` (a pipe nobody reads could fill and stall the bridge).
    init(_ arguments: [String], environment: [String: String], logPath: String) throws {
        self.logPath = logPath
        _ = FileManager.default.createFile(atPath: logPath, contents: nil)
        process.executableURL = URL(fileURLWithPath: FakeStrapBus.binary)
        process.arguments = arguments
        process.environment = environment
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle(forWritingAtPath: logPath)
        let (stream, continuation) = AsyncStream.makeStream(of: String.self)
        lines = StreamReader(stream)
        try process.run()
        Thread.detachNewThread {
            let handle = output.fileHandleForReading
            var buffer: [UInt8] = []
            while true {
                let chunk = handle.availableData
                if chunk.isEmpty { break }
                for byte in chunk {
                    if byte == UInt8(ascii: "\n") {
                        continuation.yield(String(decoding: buffer, as: UTF8.self))
                        buffer = []
                    } else {
                        buffer.append(byte)
                    }
                }
            }
            continuation.finish()
        }
    }

    /// The next update; nil when stdout closed.
    func next(within seconds: Double = 30) async throws -> [String: Any]? {
        guard let line = try await lines.next(within: seconds, "the next update") else { return nil }
        let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] ?? [:]
        updates.append(object)
        return object
    }

    /// Reads updates until one has `reason` (and is `matching`); returns it.
    @discardableResult
    func waitFor(reason: String, activityPrefix: String? = nil, within seconds: Double = 30,
                 matching: ([String: Any]) -> Bool = { _ in true }) async throws -> [String: Any] {
        while let update = try await next(within: seconds) {
            let activity = update["activity"] as? String ?? ""
            if update["reason"] as? String == reason, activityPrefix.map({ activity.hasPrefix($0) }) ?? true, matching(update) { return update }
        }
        // stdout closed: a bridge still running here would make the wait for its exit a hang of the
        // whole test run (seen in a CI rehearsal), so it is killed first.
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        let status = try await exited()
        throw TimedOut(what: "an update with reason \(reason) (stdout closed, exit \(status)); stderr:\n\(stderr)")
    }

    /// SIGTERM, then every update left until the process exits; returns the exit status. A bridge
    /// still running `seconds` later is a hang: its threads' stacks go into the error, then SIGKILL.
    func terminate(within seconds: Double = 20) async throws -> Int32 {
        kill(process.processIdentifier, SIGTERM)
        let deadline = ContinuousClock.now + .seconds(seconds)
        while ContinuousClock.now < deadline {
            let left = deadline - ContinuousClock.now
            let wait = Double(left.components.seconds) + Double(left.components.attoseconds) / 1e18
            do {
                guard try await next(within: max(wait, 0.01)) != nil else { return try await exited() }
            } catch is TimedOut {
                break
            }
        }
        let stacks = try await offThePool { [process] in threadStacks(of: process.processIdentifier) }
        kill(process.processIdentifier, SIGKILL)
        throw TimedOut(what: "hrbridge to exit within \(seconds) s of SIGTERM; its threads:\n\(stacks)\nstderr:\n\(stderr)")
    }

    /// The exit status, waited for off Swift's cooperative pool.
    func exited() async throws -> Int32 {
        let process = process
        return try await offThePool {
            process.waitUntilExit()
            return process.terminationStatus
        }
    }

    var stderr: String { (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "" }

    /// Waits until stderr holds `text` (the updates keep being read in the background).
    func waitFor(stderr text: String, within seconds: Double = 30) async throws {
        let deadline = ContinuousClock.now + .seconds(seconds)
        while !stderr.contains(text) {
            guard ContinuousClock.now < deadline else { throw TimedOut(what: "'\(text)' on stderr; stderr:\n\(stderr)") }
            try await Task.sleep(for: .milliseconds(50))
        }
    }

    deinit {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    }
}
