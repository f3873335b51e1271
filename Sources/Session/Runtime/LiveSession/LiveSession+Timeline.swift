import Dispatch
import LiveState
import Platform
import Sensors
import Synchronization
import SessionState

/// The session's time line: events from the source and the engine's deadlines, handled in order on
/// the queue, and the one timer set for whatever comes next.
extension LiveSession {
    /// An event from a live source (any thread). Kept until `start()` has recovered; ignored once
    /// the session is stopping.
    func deliver(_ event: SensorEvent) {
        queue.async { [self] in receive(event) }
    }

    /// `deliver` from a source already running on `queue`: handled at once.
    package func deliverOnQueue(_ event: SensorEvent) {
        // Checked in debug builds (the tests): the release build runs this per notification, and the
        // check is two calls into libdispatch, each a cost after every wake-up in the realbluez VM.
        #if DEBUG
        dispatchPrecondition(condition: .onQueue(queue))
        #endif
        receive(event)
    }

    private func receive(_ event: SensorEvent) {
        switch phase {
        case .notStarted: early.append(event)
        case .running:
            handle(event, origin: nil)
            pump(now: event.time) // a live event is stamped as it arrives: no second clock read
        case .over: break
        }
    }

    /// A warning from what runs beside the session on its queue (the recorder), in the log's order.
    package func warnOnQueue(_ message: String) {
        dispatchPrecondition(condition: .onQueue(queue))
        console.warn(message)
    }

    /// The live source has no more events: ends the activity now and flushes the sinks. After a
    /// signal it leaves the end to the signal's own step: `stop(signal:)` lets the source go before
    /// that step reaches the queue, so the input's end may get there first, and the run must still
    /// end as stopped by the signal (exit 130/143), not as a source that ran out.
    package func endOfInput() {
        queue.async { [self] in
            guard signalsSeen.load(ordering: .acquiring) == 0 else { return }
            switch phase {
            case .notStarted: earlyEndOfInput = true
            case .running: finish(.sourceEnded, at: clock.now() ?? lastEventTime)
            case .over: break
            }
        }
    }

    /// Handles whatever is due: deadlines the engine named and, for a paced trace, its events, in the
    /// same order as the virtual-clock replay (a deadline goes first only when strictly earlier).
    /// `now`: the time, when the caller has just read it (a live event's stamp).
    func pump(now known: Timestamp? = nil) {
        var handled = 0
        while running {
            guard handled < Self.batchSize else {
                queue.async { [self] in pump() }
                return
            }
            handled += 1
            let deadline = feed.nextDeadline
            if !isLive {
                let next: Timestamp?
                do {
                    next = try schedule?.nextTime()
                } catch {
                    fail(SessionError(error), ending: .traceError)
                    return
                }
                guard let next else {
                    finish(.sourceEnded, at: lastEventTime)
                    return
                }
                clock.anchor(at: next)
                let now = clock.now() ?? next
                if let deadline, deadline < next {
                    guard deadline <= now else { break }
                    send(feed.tick(at: deadline))
                    continue
                }
                guard next <= now, let (event, origin) = schedule?.take() else { break }
                handle(event, origin: origin)
            } else {
                guard let deadline, let now = known ?? clock.now(), deadline <= now else { break }
                send(feed.tick(at: deadline))
            }
        }
        armDeadlineTimer()
    }

    /// One timer for whatever comes next: the engine's deadline or the trace's next event. Set again
    /// only when that moves earlier: a timer that fires early finds nothing due and sets itself for
    /// the new time (the silence deadline moves later with every sample: one wake-up per timeout).
    /// A live run leaves silence to a source that reports it; the next event runs the rest at their
    /// own times.
    private func armDeadlineTimer() {
        guard running else { return }
        var due = !isLive ? feed.nextDeadline : sourceWatchesSilence ? feed.nextWakeDeadlineBesideSilence : feed.nextDeadline
        if !isLive, let next = try? schedule?.nextTime(), due.map({ $0 >= next }) ?? true { due = next }
        guard let due else {
            if deadlineTimerDue != nil { deadlineTimer?.disarm() }
            deadlineTimerDue = nil
            return
        }
        if let armed = deadlineTimerDue, armed <= due { return }
        if deadlineTimer == nil {
            deadlineTimer = ClockTimer(clock.timerClock, queue: queue) { [self] in
                deadlineTimerDue = nil
                pump()
            }
        }
        deadlineTimerDue = due
        if let deadlineTimer { clock.schedule(deadlineTimer, at: due) }
    }

    func handle(_ event: SensorEvent, origin: String?) {
        lastEventTime = event.time
        var updates: [ActivityUpdate] = [] // empty for most events: no allocation
        var warnings: [String] = []
        _ = feed.handle(event, updates: &updates, warnings: &warnings)
        if sinksTakeSamples { sinks.take(event, machineHeartRateShown: feed.heartRateFromMachineNow) }
        for warning in warnings { console.warn(origin.map { "\($0): \(warning)" } ?? warning) }
        if !updates.isEmpty { send(updates) }
    }
}
