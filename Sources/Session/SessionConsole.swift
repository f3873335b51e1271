/// The program's standard streams as a session uses them: update lines of a `stdout` sink go to
/// the output, logs (recovery, signals, sink counters, Bluetooth trouble) to the log. The command
/// line passes its own console in; tests pass one that keeps what was written.
/// Called from several straps' sessions and links at once: each call must be atomic.
public protocol SessionConsole: AnyObject, Sendable {
    /// Appends bytes to standard output (buffered until `flushOutput`).
    func writeOutput(_ bytes: [UInt8])
    func flushOutput()
    /// One log line on standard error, `hrbridge: ` first, written at once.
    func warn(_ message: String)
}
