import Forwarding
import Session
import Synchronization

/// A console that keeps what a session wrote: update lines as stdout would get them, log lines as
/// stderr would (each with its `hrbridge: `).
public final class CapturedConsole: SessionConsole {
    public init() {}

    fileprivate let written = Mutex<(output: [UInt8], log: String)>(([], ""))

    public func standardOutput(flushEachLine: Bool) -> any LineOutput { Lines(console: self) }
    public func warn(_ message: String) { written.withLock { $0.log += "hrbridge: \(message)\n" } }

    public var output: String { written.withLock { String(decoding: $0.output, as: UTF8.self) } }
    public var log: String { written.withLock { $0.log } }

    private final class Lines: LineOutput {
        let console: CapturedConsole
        init(console: CapturedConsole) { self.console = console }
        func write(_ line: [UInt8]) throws(LineOutputError) { console.written.withLock { $0.output += line } }
        func syncLifecycle() throws(LineOutputError) {}
        func close() {}
    }
}
