#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// For measuring only (`scripts/perf/gateway-scale`): when `HRBRIDGE_LATENCY_TRACE` names a file, the
/// moments an update passes the points of its way out (decided, the state file saved, a line
/// written, a network delivery done) are kept in memory and written to that file when the process exits, one
/// line each: `POINT ACTIVITY SEQUENCE DONE_US [ORIGIN_US REASON]` (wall-clock microseconds; ORIGIN is
/// the update's own time: for an update a notification caused, that notification's kernel receive
/// stamp). Nothing is written while running, so the measuring does not move what it measures; unset,
/// each point costs one check of a flag read once, per update (not per notification).
public enum LatencyTrace {
    /// Read once, at the first update.
    public static let isOn: Bool = path != nil

    /// Records that an update passed `point` now. `origin` and `reason` where the point knows them.
    public static func note(_ point: String, activity: String, sequence: Int, origin: Int64? = nil, reason: String? = nil) {
        let done = kernelNanoseconds(CLOCK_REALTIME) / 1000
        let line = "\(point) \(activity) \(sequence) \(done)" + (origin.map { " \($0) \(reason ?? "-")" } ?? "") + "\n"
        records.withLock { $0.append(line) }
    }

    private static let path: String? = {
        guard let value = getenv("HRBRIDGE_LATENCY_TRACE"), value.pointee != 0 else { return nil }
        atexit { LatencyTrace.write() }
        return String(cString: value)
    }()

    private static let records = Mutex<[String]>([])

    private static func write() {
        guard let path else { return }
        let text = records.withLock { $0.joined() }
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { return }
        _ = writeAll(descriptor, Array(text.utf8)) // at exit, for measuring: nothing to tell a failure to
        close(descriptor)
    }
}
