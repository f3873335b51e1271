import Forwarding

/// The stdout sink's bytes go through the console (captured in tests, buffered in fast replay):
/// flushed after every line when paced, and after every start and end in any case.
final class ConsoleLineOutput: LineOutput {
    private let console: Console
    private let flushEachLine: Bool

    init(console: Console, flushEachLine: Bool) {
        self.console = console
        self.flushEachLine = flushEachLine
    }

    func write(_ line: [UInt8]) throws(LineOutputError) {
        console.output.write(line)
        if flushEachLine { console.output.flush() }
    }

    func syncLifecycle() throws(LineOutputError) { console.output.flush() }

    func close() { console.output.flush() }
}
