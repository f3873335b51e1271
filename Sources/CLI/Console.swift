#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Forwarding
import Session
import Synchronization

/// The program's standard streams, injectable so tests run commands in-process.
/// Data goes to `output`; logs and errors go to `log` (stderr), each message flushed at once.
/// Shared by `run`'s straps: both outputs lock each write; input is read on the command's thread only.
final class Console: @unchecked Sendable {
    let output: ByteOutput
    let log: ByteOutput
    private let readInput: () -> [UInt8]
    /// The status block at the bottom of the terminal, while `run` or a paced `replay` shows one:
    /// log lines (and update lines, when stdout is that terminal) are then written above it.
    private let terminalStatus = Mutex<TerminalStatus?>(nil)

    init(output: ByteOutput, log: ByteOutput, input: @escaping () -> [UInt8]) {
        self.output = output
        self.log = log
        self.readInput = input
    }

    static func standard() -> Console {
        Console(output: .descriptor(STDOUT_FILENO), log: .descriptor(STDERR_FILENO), input: readStandardInput)
    }

    /// All of standard input (the commands that read it take small, line-oriented input).
    func readAllInput() -> [UInt8] { readInput() }

    func warn(_ message: String) {
        if let status = terminalStatus.withLock({ $0 }) { return status.print("hrbridge: \(message)\n") }
        log.write("hrbridge: \(message)\n")
        log.flush()
    }

    /// Shows `status` at the bottom of the terminal until `hideStatus()`.
    func showStatus(_ status: TerminalStatus) {
        terminalStatus.withLock { $0 = status }
    }

    /// Takes the status block away; logs go straight to stderr again.
    func hideStatus() {
        terminalStatus.withLock { status in
            status?.stop()
            status = nil
        }
    }

    private static func readStandardInput() -> [UInt8] {
        var data: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(STDIN_FILENO, $0.baseAddress!, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break }
            data.append(contentsOf: chunk[..<count])
        }
        return data
    }
}

/// A session writes its updates and logs through the command's console: a `stdout` sink's lines
/// straight into the output's buffer.
extension Console: SessionConsole {
    func standardOutput(flushEachLine: Bool) -> any LineOutput {
        // Update lines go above the status block only when they reach the same terminal.
        let status = TerminalStatus.isTerminal(output) ? terminalStatus.withLock { $0 } : nil
        return StandardOutputLines(output: output, flushEachLine: flushEachLine, status: status)
    }
}
