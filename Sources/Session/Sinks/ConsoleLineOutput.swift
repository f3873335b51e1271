import Forwarding

/// The stdout sink's bytes go through the console (captured in tests, buffered in fast replay):
/// flushed after every line when paced, and after every start and end in any case.
public final class ConsoleLineOutput: LineOutput {
    private let console: any SessionConsole
    private let flushEachLine: Bool

    public init(console: any SessionConsole, flushEachLine: Bool) {
        self.console = console
        self.flushEachLine = flushEachLine
    }

    public func write(_ line: [UInt8]) throws(LineOutputError) {
        console.writeOutput(line)
        if flushEachLine { console.flushOutput() }
    }

    public func syncLifecycle() throws(LineOutputError) { console.flushOutput() }

    public func close() { console.flushOutput() }
}
