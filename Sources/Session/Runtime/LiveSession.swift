import Dispatch
import FoundationEssentials
import Sensors
import LiveState
import Platform
import Synchronization

/// Runs one strap's live state in real time: events from a source (a live strap pushing through
/// `deliver`, or a paced trace pulled from a `TraceSchedule`), a wall-clock timer set to the
/// engine's next deadline (no polling: nothing wakes when nothing is due), every update recorded
/// in the state file and sent to the sinks, sink log lines drained as they arrive and the status
/// line on its own timer. `stop(signal:)` ends the activity and flushes the sinks; `start()` first
/// ends what a crashed run left. All state lives on one serial queue.
public final class LiveSession: @unchecked Sendable {
    /// How the session ended, for what `SessionRunner` throws.
    enum Ending: Sendable, Equatable {
        /// The source ran out (end of the trace; a strap source that gave up).
        case sourceEnded
        /// A signal asked for a stop; the activity was ended and the sinks flushed.
        case stopped(signal: Int32)
        /// A second signal cut the flush short; what was not confirmed stays in the state file.
        case hurried(signal: Int32)
        /// A sink, the state file or the trace failed; `failure` says what.
        case failed
    }

    /// All session state lives here. A live strap link may run on it too (`deliverOnQueue`): a value
    /// then goes from the socket through the engine on one thread, with no hand-off.
    let queue: DispatchQueue
    /// The variables each notification reads and writes (`feed`, `phase`, `lastEventTime`,
    /// `deadlineTimerDue`) skip the dynamic exclusivity check (`swift_beginAccess`, a runtime call per
    /// access, several a notification). It catches overlapping accesses; none can happen here: they are
    /// touched only on the queue, and nothing called during an access (the pure feed) calls back.
    @exclusivity(unchecked) private var feed: StrapFeed
    private let sinks: SinkSet
    private let console: any SessionConsole
    private let clock: SessionClock
    private let stateFile: ActivityStateFile
    private var schedule: TraceSchedule?
    /// No schedule: events come from a live source. A flag, read per event where testing the optional
    /// schedule went through its outlined copy and destroy.
    private let isLive: Bool
    private let onStop: @Sendable () -> Void
    private var ledger = ActivityLedger()
    private enum Phase { case notStarted, running, over }
    @exclusivity(unchecked) private var phase = Phase.notStarted
    private var running: Bool { phase == .running }
    /// What came before `start()` (a source attached first): handled right after recovery, in order.
    private var early: [StrapEvent] = []
    private var earlyEndOfInput = false
    /// A signal that came before `start()`: the session stops right after recovering.
    private var stopBeforeStart: Int32?
    @exclusivity(unchecked) private var lastEventTime: Timestamp?
    private var deadlineTimer: ClockTimer?
    /// What the deadline timer is set for (engine time); nil when it is not set.
    @exclusivity(unchecked) private var deadlineTimerDue: Timestamp?
    /// The live source tells of silence in time (`sourceSilence`): the timer need not wake for it.
    private let sourceWatchesSilence: Bool
    private var statusTimer: (any DispatchSourceTimer)?
    /// The first failure (a sink's output gone, the state file unwritable), or the trace line it broke off at.
    private(set) var failure: SessionError?
    private let signalsSeen = Atomic<Int>(0)
    private let outcome = Mutex<Ending?>(nil)
    private let finished = DispatchSemaphore(value: 0)

    /// Events a paced replay handles in one go before letting timers and signals in (at high speeds
    /// many are due at once).
    private static let batchSize = 256

    /// `schedule`: a trace to pull from (nil: a live source calls `deliver`). `onStop` runs when a
    /// signal stops the session, so the source can let go of the strap while the sinks flush.
    /// `sourceSilence`: the live source reports silence itself, with `disconnected` at most this long
    /// after its last value (a link's watchdog); when that is no later than the engine's silence timeout,
    /// the session's timer leaves that timeout to the source (`nextWakeDeadlineBesideSilence`).
    public init(feed: StrapFeed, sinks: SinkSet, console: any SessionConsole, clock: SessionClock, stateFile: ActivityStateFile,
                schedule: TraceSchedule? = nil, sourceSilence: Duration? = nil,
                queue: DispatchQueue = DispatchQueue(label: "hrbridge.session"), onStop: @escaping @Sendable () -> Void = {}) {
        self.queue = queue
        self.feed = feed
        self.sinks = sinks
        self.console = console
        self.clock = clock
        self.stateFile = stateFile
        self.schedule = schedule
        self.onStop = onStop
        isLive = schedule == nil
        sourceWatchesSilence = isLive && sourceSilence.map { $0 <= .seconds(feed.engine.policy.silenceTimeout) } ?? false
    }

    /// Ends what the last run left (before anything else goes out), then starts taking events.
    func start() throws(SessionError) {
        connectSinkControl()
        if let failure = queue.sync(execute: { begin() }) { throw failure }
    }

    /// `start()` on the queue: recovery, then the timers and (for a trace) the first events.
    private func begin() -> SessionError? {
        do {
            try recoverLeftovers()
        } catch {
            phase = .over
            sinks.finish()
            stateFile.release()
            failure = error
            settle(.failed)
            return error
        }
        phase = .running
        sinks.relay.whenLineArrives { [self] in queue.async { self.sinks.drainLogs() } }
        if let period = sinks.statusPeriod, period > 0 { statusTimer = repeatingTimer(every: period) { $0.sinks.logStatusIfDue() } }
        for event in early where running { handle(event, origin: nil) }
        early = []
        if let signal = stopBeforeStart {
            finish(.stopped(signal: signal), at: clock.now() ?? lastEventTime)
        } else if earlyEndOfInput {
            finish(.sourceEnded, at: clock.now() ?? lastEventTime)
        } else {
            pump()
        }
        return nil
    }

    /// An event from a live source (any thread). Kept until `start()` has recovered; ignored once
    /// the session is stopping.
    func deliver(_ event: StrapEvent) {
        queue.async { [self] in receive(event) }
    }

    /// `deliver` from a source already running on `queue`: handled at once.
    func deliverOnQueue(_ event: StrapEvent) {
        // Checked in debug builds (the tests): the release build runs this per notification, and the
        // check is two calls into libdispatch, each a cost after every wake-up in the realbluez VM.
        #if DEBUG
        dispatchPrecondition(condition: .onQueue(queue))
        #endif
        receive(event)
    }

    private func receive(_ event: StrapEvent) {
        switch phase {
        case .notStarted: early.append(event)
        case .running:
            handle(event, origin: nil)
            pump(now: event.time) // a live event is stamped as it arrives: no second clock read
        case .over: break
        }
    }

    /// A warning from what runs beside the session on its queue (the recorder), in the log's order.
    func warnOnQueue(_ message: String) {
        dispatchPrecondition(condition: .onQueue(queue))
        console.warn(message)
    }

    /// The live source has no more events: ends the activity now and flushes the sinks.
    func endOfInput() {
        queue.async { [self] in
            switch phase {
            case .notStarted: earlyEndOfInput = true
            case .running: finish(.sourceEnded, at: clock.now() ?? lastEventTime)
            case .over: break
            }
        }
    }

    /// SIGINT or SIGTERM (any thread). The first ends the activity and flushes the sinks within the
    /// grace period; a second one returns from `wait()` at once.
    func stop(signal: Int32) {
        if signalsSeen.add(1, ordering: .acquiringAndReleasing).oldValue > 0 {
            settle(.hurried(signal: signal))
            return
        }
        onStop()
        queue.async { [self] in
            switch phase {
            case .notStarted:
                stopBeforeStart = signal
                return
            case .over: return
            case .running: break
            }
            console.warn("\(SignalWatcher.name(signal)): ending the activity and flushing the sinks")
            finish(.stopped(signal: signal), at: clock.now() ?? lastEventTime)
        }
    }

    /// Control from a person or the service (pause, resume, label): the Linux counterparts of the
    /// activity's intent buttons. `reply` gets nil, or why the input was refused (a label too long).
    func control(_ input: EngineInput, reply: @escaping @Sendable (LiveStateError?) -> Void) {
        queue.async { [self] in
            guard running, let now = clock.now() else { return reply(nil) }
            do throws(LiveStateError) {
                send(try feed.control(input, at: now))
                pump() // a pause or resume moves the deadlines
                reply(nil)
            } catch {
                reply(error)
            }
        }
    }

    func control(_ input: EngineInput) async throws(LiveStateError) {
        let refusal = await withCheckedContinuation { continuation in control(input) { continuation.resume(returning: $0) } }
        if let refusal { throw refusal }
    }

    /// Commands a sink received (MQTT's control topic) go where `hrbridge ctl`'s do.
    private func connectSinkControl() {
        sinks.control.connect { [weak self] action, reply in
            guard let self else { return reply("the session is over") }
            if let input = action.engineInput {
                control(input) { reply($0.map { "\($0)" }) }
            } else {
                end { reply($0 ? nil : "the activity has already ended") }
            }
        }
    }

    /// A person ended the activity (`hrbridge ctl end`): as a stop, for this session only: the source
    /// lets go, the final state goes out and the sinks flush. `reply` gets false when it had already ended.
    func end(reply: @escaping @Sendable (Bool) -> Void) {
        queue.async { [self] in
            guard running else { return reply(false) }
            onStop()
            finish(.sourceEnded, at: clock.now() ?? lastEventTime)
            reply(true)
        }
    }

    /// The machine is about to sleep, and the links have let go (their `disconnected` went through
    /// the engine: sensor-lost, priority 10): the sinks deliver what waits, for up to `seconds`, so the
    /// phone shows the truth while this machine is away. `done` runs afterwards (on the queue).
    func settleBeforeSleep(within seconds: Double, done: @escaping @Sendable () -> Void) {
        queue.async { [self] in
            if running { sinks.settle(within: seconds) }
            done()
        }
    }

    /// The machine woke: the engine's deadlines are checked against the clock at once, so one that
    /// passed during the sleep (a give-up, the time limit) runs now, at its own time, and the timer
    /// is set afresh for the next. Whatever clock an armed timer was on, nothing waits for it.
    func resumedFromSleep() {
        queue.async { [self] in
            guard running, isLive else { return }
            deadlineTimerDue = nil
            pump()
        }
    }

    /// The current activity and the sinks' counters.
    func status() -> SessionStatus {
        queue.sync {
            SessionStatus(running: running, activity: ledger.entries.last { $0.lastUpdate.event != .end }?.lastUpdate,
                          distanceSensor: feed.distanceSensor,
                          urgentPushes: feed.engine.urgentPushes, demotions: feed.engine.demotions,
                          sinks: sinks.counterSummaries.map { SessionStatus.SinkStatus(name: $0.name, summary: $0.summary) })
        }
    }

    /// Blocks until the session has ended (or was hurried).
    func wait() -> Ending {
        finished.wait()
        finished.signal() // later waiters return too
        return outcome.withLock { $0 } ?? .failed
    }

    // MARK: - On the queue

    /// Handles whatever is due: deadlines the engine named and, for a paced trace, its events, in the
    /// same order as the virtual-clock replay (a deadline goes first only when strictly earlier).
    /// `now`: the time, when the caller has just read it (a live event's stamp).
    private func pump(now known: Timestamp? = nil) {
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
                    next = try schedule!.nextTime()
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
                guard next <= now, let (event, origin) = schedule!.take() else { break }
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
        if !isLive, let next = try? schedule!.nextTime(), due.map({ $0 >= next }) ?? true { due = next }
        guard let due else {
            if deadlineTimerDue != nil { deadlineTimer?.disarm() }
            deadlineTimerDue = nil
            return
        }
        if let armed = deadlineTimerDue, armed <= due { return }
        if deadlineTimer == nil {
            deadlineTimer = ClockTimer(clock.timerClock, name: "hrbridge.timer", queue: queue) { [self] in
                deadlineTimerDue = nil
                pump()
            }
        }
        deadlineTimerDue = due
        if let deadlineTimer { clock.schedule(deadlineTimer, at: due) }
    }

    private func handle(_ event: StrapEvent, origin: String?) {
        lastEventTime = event.time
        var updates: [ActivityUpdate] = [] // empty for most events: no allocation
        var warnings: [String] = []
        _ = feed.handle(event, updates: &updates, warnings: &warnings)
        for warning in warnings { console.warn(origin.map { "\($0): \(warning)" } ?? warning) }
        if !updates.isEmpty { send(updates) }
    }

    /// Each update is written to the state file before any sink sees it: after a crash the next run
    /// continues the sequence, never repeats a number a receiver already has.
    private func send(_ updates: [ActivityUpdate]) {
        for update in updates where failure == nil {
            ledger.record(update, sinks: sinks.names)
            do {
                try stateFile.save(ledger)
                try sinks.acceptGoingOn(update)
            } catch let error as ActivityStateFile.Failure {
                fail(.unwritable(error.description), ending: nil)
            } catch let error as SessionError {
                fail(error, ending: .stopped)
            } catch {
                fail(.unwritable("\(error)"), ending: .stopped)
            }
        }
    }

    private func recoverLeftovers() throws(SessionError) {
        guard let now = SessionClock.real.now() else { return }
        ledger = try LeftoverEnds.send(from: stateFile, through: sinks, console: console, policy: feed.engine.policy, at: now)
    }

    /// Ends the activity (at `time`, as `cause`), flushes the sinks (ends they cannot deliver are
    /// spooled), then strikes them from the state file: what it listed has reached them or their
    /// spool. What stays is owed to a sink that failed or that this run does not have.
    /// `reason`: what made the session give up, reported once the end is out.
    private func finish(_ ending: Ending, at time: Timestamp?, as cause: EndCause = .stopped, failure reason: SessionError? = nil) {
        guard running else { return }
        phase = .over
        deadlineTimer?.cancel()
        statusTimer?.cancel()
        sinks.relay.whenLineArrives {} // the relay no longer holds the session
        if let time { send(feed.finish(at: time, cause: cause)) }
        if let reason {
            // What made the session give up is what it reports; a sink that failed on the end is said beside it.
            if let failure { console.warn(failure.message) }
            failure = reason
        }
        sinks.finish()
        // A sink that failed while the others went on is what the session reports, once all is out.
        if failure == nil { failure = sinks.firstFailure }
        // A sink that failed missed the end: it stays owed there, and the next run with that sink sends
        // it again (same sequence). An end the state file could not record is left to recovery whole.
        if failure == nil || ledger.activeCount == 0 {
            ledger.settle(reachedBy: sinks.workingNames)
            do {
                try stateFile.save(ledger)
            } catch {
                console.warn(error.description)
            }
        }
        stateFile.release()
        settle(failure == nil ? ending : .failed)
    }

    /// Gives up after `error`, still ending the activity (as `cause`, at the last event) through the
    /// sinks that work. `cause` nil: the state file failed, and an end it cannot record first is left
    /// to the next run's recovery.
    private func fail(_ error: SessionError, ending cause: EndCause?) {
        guard running else {
            // Failed on the end itself: the first failure is what the session reports, a later one is said.
            if failure == nil { failure = error } else { console.warn(error.message) }
            return
        }
        finish(.failed, at: cause == nil ? nil : lastEventTime, as: cause ?? .stopped, failure: error)
    }

    private func settle(_ ending: Ending) {
        let first = outcome.withLock { outcome in
            defer { if outcome == nil { outcome = ending } }
            return outcome == nil
        }
        if first { finished.signal() }
    }

    private func repeatingTimer(every seconds: Double, _ action: @escaping (LiveSession) -> Void) -> any DispatchSourceTimer {
        let timer = DispatchSource.makeTimerSource(queue: queue)
        let interval = DispatchTimeInterval.milliseconds(Int(seconds * 1000))
        timer.schedule(deadline: .now() + interval, repeating: interval)
        timer.setEventHandler { [self] in action(self) }
        timer.resume()
        return timer
    }
}
