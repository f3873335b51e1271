import Forwarding

/// The `stdout` sink's lines into the program's output buffer (captured in tests, buffered in a
/// fast replay): flushed after every line when paced, and after every start and end in any case.
final class StandardOutputLines: LineOutput {
    private let output: ByteOutput
    private let flushEachLine: Bool

    init(output: ByteOutput, flushEachLine: Bool) {
        self.output = output
        self.flushEachLine = flushEachLine
    }

    func write(_ line: [UInt8]) throws(LineOutputError) {
        output.write(line)
        if flushEachLine { output.flush() }
    }

    func syncLifecycle() throws(LineOutputError) { output.flush() }

    func close() { output.flush() }
}
