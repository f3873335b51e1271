import Forwarding

/// The `stdout` sink's lines into the program's output buffer (captured in tests, buffered in a
/// fast replay): flushed after every line when paced, and after every start and end in any case.
final class StandardOutputLines: LineOutput {
    private let output: ByteOutput
    private let flushEachLine: Bool
    /// The status block on the same terminal, if any: each line is written above it.
    private let status: TerminalStatus?

    init(output: ByteOutput, flushEachLine: Bool, status: TerminalStatus? = nil) {
        self.output = output
        self.flushEachLine = flushEachLine
        self.status = status
    }

    func write(_ line: [UInt8]) throws(LineOutputError) {
        guard let status else {
            output.write(line)
            if flushEachLine { output.flush() }
            return
        }
        status.above {
            output.write(line)
            output.flush()
        }
    }

    func syncLifecycle() throws(LineOutputError) { output.flush() }

    func close() { output.flush() }
}
