import Forwarding

/// The program's standard streams as a session uses them: update lines of a `stdout` sink go to
/// standard output, logs (recovery, signals, sink counters, Bluetooth trouble) to the log. The
/// command line passes its own console in; tests pass one that keeps what was written.
/// Called from several straps' sessions and links at once: each call must be atomic.
public protocol SessionConsole: AnyObject, Sendable {
    /// Where a `stdout` sink writes its lines: flushed after every line when `flushEachLine` (paced
    /// and live runs), and after every start and end in any case (a buffered fast replay).
    func standardOutput(flushEachLine: Bool) -> any LineOutput
    /// One log line on standard error, `hrbridge: ` first, written at once.
    func warn(_ message: String)
}
