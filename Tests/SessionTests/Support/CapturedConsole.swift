import Session
import Synchronization

/// A console that keeps what a session wrote: update lines as stdout would get them, log lines as
/// stderr would (each with its `hrbridge: `).
final class CapturedConsole: SessionConsole {
    private let written = Mutex<(output: [UInt8], log: String)>(([], ""))

    func writeOutput(_ bytes: [UInt8]) { written.withLock { $0.output += bytes } }
    func flushOutput() {}
    func warn(_ message: String) { written.withLock { $0.log += "hrbridge: \(message)\n" } }

    var output: String { written.withLock { String(decoding: $0.output, as: UTF8.self) } }
    var log: String { written.withLock { $0.log } }
}
