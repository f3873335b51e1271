import Sensors
import LiveState
import Trace
import SessionState

/// Drives a trace through the live state on the trace's clock: virtual time advances to whichever
/// comes first, the next event or the engine's next deadline, and the pacer holds each back to its
/// (scaled) trace time. What comes out depends only on the trace and the settings, never on the pace.
public struct TraceDrive {
    var reader: TraceReader
    var pacer: ReplayPacer
    var feed: WorkoutFeed

    public init(reader: TraceReader, pacer: ReplayPacer, feed: WorkoutFeed) {
        self.reader = reader
        self.pacer = pacer
        self.feed = feed.following(reader.header)
    }

    /// Everything the drive produced, as it happens.
    public struct Observer {
        var update: (ActivityUpdate) throws(SessionError) -> Void
        /// Each valid sample, parsed only when someone listens (the RR list costs an allocation).
        var sample: ((Timestamp, HeartRateMeasurement) -> Void)?
        /// The metres of each valid distance measurement, as fed to the engine; before the updates
        /// they lead to, so a listener knows which activity (if any) was running when they came.
        var distance: ((Timestamp, Double) -> Void)?
        /// `path:line: reason` of a dropped event; also a sink that failed on the end sent after an error.
        var warning: (String) -> Void

        public init(update: @escaping (ActivityUpdate) throws(SessionError) -> Void,
                    sample: ((Timestamp, HeartRateMeasurement) -> Void)? = nil,
                    distance: ((Timestamp, Double) -> Void)? = nil, warning: @escaping (String) -> Void) {
            self.update = update
            self.sample = sample
            self.distance = distance
            self.warning = warning
        }
    }

    /// Replays to the end of the trace, then ends the activity at the last event's time.
    /// Returns the span of the trace (first and last event), nil for a trace without events.
    /// A line that cannot be read ends the activity too (`end:trace-error`, at the last good event),
    /// and so does a sink that fails (`end:stopped`, through the sinks that still work), before the
    /// error is thrown: the activity must not stay open at the sinks.
    @discardableResult
    public mutating func run(_ observer: Observer) throws(SessionError) -> ClosedRange<Timestamp>? {
        var first: Timestamp?
        var last: Timestamp?
        do {
            // One event and one update array, reused line after line: this loop runs millions of times a
            // second, and fresh optionals and arrays per event cost more than the engine's own work.
            var event = SensorEvent(time: reader.start, kind: .connected)
            var updates: [ActivityUpdate] = []
            var warnings: [String] = []
            while try reader.next(into: &event) {
                while let deadline = feed.nextDeadline, deadline < event.time {
                    pacer.wait(until: deadline)
                    for update in feed.tick(at: deadline) { try observer.update(update) }
                }
                pacer.wait(until: event.time)
                let note = feed.handle(event, updates: &updates, warnings: &warnings)
                // Before its updates go out: should a sink fail on them, the end comes at this event.
                first = first ?? event.time
                last = event.time
                if !warnings.isEmpty {
                    for warning in warnings { observer.warning("\(reader.path):\(reader.lineNumber): \(warning)") }
                    warnings.removeAll(keepingCapacity: true)
                }
                if let sample = observer.sample, note.measured, case let .notification(_, value) = event.kind,
                   let measurement = try? HeartRateMeasurement(parsing: value) {
                    sample(event.time, measurement)
                }
                if let distance = observer.distance, let meters = note.metersCovered { distance(event.time, meters) }
                guard !updates.isEmpty else { continue }
                for update in updates { try observer.update(update) }
                updates.removeAll(keepingCapacity: true)
            }
        } catch let error as TraceReadError {
            end(at: last, .traceError, observer)
            throw SessionError(error)
        } catch let error as SessionError {
            end(at: last, .stopped, observer)
            throw error
        } catch {
            throw .invalid("\(error)")
        }
        guard let first, let last else { return nil }
        for update in feed.finish(at: last) { try observer.update(update) }
        return first...last
    }

    /// Ends the activity after an error, if one may be running (an event was handled). The error
    /// being thrown is what the exit status reports; a sink failing on this end is said beside it.
    private mutating func end(at last: Timestamp?, _ cause: EndCause, _ observer: Observer) {
        guard let last else { return }
        do {
            for update in feed.finish(at: last, cause: cause) { try observer.update(update) }
        } catch {
            observer.warning(error.message)
        }
    }
}

extension WorkoutFeed {
    /// The feed a trace's events go through: its run's settings that the events alone do not say,
    /// from the header (where the heart rate may come from), over the command's.
    func following(_ header: TraceHeader) -> WorkoutFeed {
        heartRate(from: header.heartRateFrom ?? .strap)
    }
}
