import Sensors
import Trace

/// A trace as a schedule a live session pulls from: it looks at the next event's time before
/// taking it, so the session can put each engine deadline before or after it exactly as the
/// virtual-clock replay does (`TraceDrive`), and output stays byte-identical at any speed.
public struct TraceSchedule {
    private let reader: TraceReader
    private var upcoming: (event: SensorEvent, line: Int)?
    private var exhausted = false

    public init(reader: TraceReader) { self.reader = reader }

    /// The trace's header: what its run was set to that the events alone do not say.
    var header: TraceHeader { reader.header }

    /// The next event's time; nil at the end of the trace.
    mutating func nextTime() throws(TraceReadError) -> Timestamp? {
        if upcoming == nil, !exhausted {
            if let event = try reader.next() {
                upcoming = (event, reader.lineNumber)
            } else {
                exhausted = true
            }
        }
        return upcoming?.event.time
    }

    /// Takes the event `nextTime()` announced, with its `path:line` for warnings.
    mutating func take() -> (event: SensorEvent, origin: String)? {
        defer { upcoming = nil }
        return upcoming.map { ($0.event, "\(reader.path):\($0.line)") }
    }
}
