import Dispatch
import LiveState
import Platform
import Sensors
import Synchronization
import SessionState

/// Where a live session's events come from.
public enum SessionSource {
    /// A live strap link calling `deliver`. `silence`: the link reports silence itself, with
    /// `disconnected` at most this long after its last value (its watchdog); when that is no later
    /// than the engine's silence timeout, the session's timer leaves that timeout to the link.
    case live(silence: Duration?)
    /// A paced trace the session pulls from.
    case trace(TraceSchedule)
}

/// Runs one strap's live state in real time: events from a source (a live strap pushing through
/// `deliver`, or a paced trace pulled from a `TraceSchedule`), a wall-clock timer set to the
/// engine's next deadline (no polling: nothing wakes when nothing is due), every update through the
/// journal (state file first, then the sinks), sink log lines drained as they arrive and the status
/// line on its own timer. `stop(signal:)` ends the activity and flushes the sinks; `start()` first
/// ends what a crashed run left. All state lives on one serial queue.
///
/// Its parts: this file (state, start, status, the outcome), `+Timeline` (events and deadlines in
/// order, the one timer), `+Controls` (signals, pause/resume/label/end, sleep), `+Ending` (updates
/// out through the journal, the end and failures).
// Its mutable state is touched only on `queue` (entry points hop onto it or check they are on it);
// what other threads read goes through `outcome` (a Mutex), `signalsSeen` (an Atomic) or the semaphore.
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
    package let queue: DispatchQueue
    /// The variables each notification reads and writes (`feed`, `phase`, `lastEventTime`,
    /// `deadlineTimerDue`) skip the dynamic exclusivity check (`swift_beginAccess`, a runtime call per
    /// access, several a notification). It catches overlapping accesses; none can happen here: they are
    /// touched only on the queue, and nothing called during an access (the pure feed) calls back.
    @exclusivity(unchecked) var feed: WorkoutFeed
    var journal: ActivityJournal
    var sinks: SinkSet { journal.sinks }
    /// A sink takes the workout's samples one by one (a Bluetooth peripheral). Read per event from a
    /// constant: reaching the sinks through the journal for a set that is almost always empty cost
    /// each notification a class access and a retain.
    let sinksTakeSamples: Bool
    let console: any SessionConsole
    let clock: SessionClock
    /// The paced trace pulled from; nil for a live source.
    var schedule: TraceSchedule?
    /// No schedule: events come from a live source. A flag, read per event where testing the optional
    /// schedule went through its outlined copy and destroy.
    let isLive: Bool
    /// The live source tells of silence in time: the timer need not wake for it.
    let sourceWatchesSilence: Bool
    let onStop: @Sendable () -> Void
    enum Phase { case notStarted, running, over }
    @exclusivity(unchecked) var phase = Phase.notStarted
    var running: Bool { phase == .running }
    /// What came before `start()` (a source attached first): handled right after recovery, in order.
    var early: [SensorEvent] = []
    var earlyEndOfInput = false
    /// A signal that came before `start()`: the session stops right after recovering.
    var stopBeforeStart: Int32?
    @exclusivity(unchecked) var lastEventTime: Timestamp?
    var deadlineTimer: ClockTimer?
    /// What the deadline timer is set for (engine time); nil when it is not set.
    @exclusivity(unchecked) var deadlineTimerDue: Timestamp?
    private var statusTimer: (any DispatchSourceTimer)?
    /// The first failure (a sink's output gone, the state file unwritable), or the trace line it broke
    /// off at. On the queue only: others read it as settled (`settledFailure`).
    var failure: SessionError?
    let signalsSeen = Atomic<Int>(0)
    /// How the session ended, with its failure as it stood then: what `wait()` and `settledFailure` return.
    private let outcome = Mutex<(ending: Ending, failure: SessionError?)?>(nil)
    private let finished = DispatchSemaphore(value: 0)

    /// Events a paced replay handles in one go before letting timers and signals in (at high speeds
    /// many are due at once).
    static let batchSize = 256

    /// `onStop` runs when a signal stops the session, so the source can let go of the strap while
    /// the sinks flush.
    public init(feed: WorkoutFeed, sinks: SinkSet, console: any SessionConsole, clock: SessionClock, stateFile: ActivityStateFile,
                source: SessionSource = .live(silence: nil),
                queue: DispatchQueue = DispatchQueue(label: "hrbridge.session"), onStop: @escaping @Sendable () -> Void = {}) {
        self.queue = queue
        self.feed = feed
        journal = ActivityJournal(sinks: sinks, stateFile: stateFile)
        sinksTakeSamples = sinks.takesSamples
        self.console = console
        self.clock = clock
        self.onStop = onStop
        switch source {
        case let .live(silence):
            isLive = true
            sourceWatchesSilence = silence.map { $0 <= .seconds(feed.engine.policy.silenceTimeout) } ?? false
        case let .trace(schedule):
            self.feed = feed.following(schedule.header)
            self.schedule = schedule
            isLive = false
            sourceWatchesSilence = false
        }
    }

    /// Ends what the last run left (before anything else goes out), then starts taking events.
    func start() throws(SessionError) {
        if let failure = queue.sync(execute: { connectSinkControl(); return begin() }) { throw failure }
    }

    /// `start()` on the queue: recovery, then the timers and (for a trace) the first events.
    private func begin() -> SessionError? {
        do {
            if let now = SessionClock.real.now() {
                try journal.recoverLeftovers(console: console, policy: feed.engine.policy, at: now)
            }
        } catch {
            phase = .over
            journal.abandon()
            failure = error
            settle(.failed, failure: error)
            return error
        }
        phase = .running
        sinks.relay.whenLineArrives { [self] in queue.async { self.sinks.drainLogs() } }
        sinks.drainLogs() // what the sinks said while they were set up (a peripheral advertising, or why not)
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

    /// The current activity and the sinks' counters.
    package func status() -> SessionStatus {
        queue.sync {
            let shown = (journal.currentUpdate ?? journal.lastUpdate)?.activityID
            return SessionStatus(running: running, activity: journal.currentUpdate, latest: journal.lastUpdate,
                                 pushToken: shown.flatMap { activity in
                                     sinks.pushTokens.flatMap { $0.isUsed ? $0.status(of: activity) : nil }
                                 },
                                 channel: shown.flatMap { activity in sinks.channels.snapshot.channels.first { $0.activity == activity }?.id },
                                 distanceSensor: feed.distanceSensor, distanceSensorOffers: feed.distanceSensorOffers,
                                 heartRateSource: feed.heartRateSource, heartRateFromMachineNow: feed.heartRateFromMachineNow,
                                 urgentPushes: feed.engine.urgentPushes, demotions: feed.engine.demotions,
                                 sinks: sinks.counterSummaries.map { SessionStatus.SinkStatus(name: $0.name, summary: $0.summary) })
        }
    }

    /// Blocks until the session has ended (or was hurried).
    func wait() -> Ending {
        finished.wait()
        finished.signal() // later waiters return too
        return outcome.withLock { $0?.ending } ?? .failed
    }

    /// The failure the session ended with (any thread, once `wait()` has returned); nil when a second
    /// signal hurried it before it knew.
    var settledFailure: SessionError? {
        outcome.withLock { $0?.failure }
    }

    /// The first outcome is the session's: `wait()` returns it. `failure`: the session's, passed on the
    /// queue (a second signal settles from its own thread, without one).
    func settle(_ ending: Ending, failure: SessionError? = nil) {
        let first = outcome.withLock { outcome in
            defer { if outcome == nil { outcome = (ending, failure) } }
            return outcome == nil
        }
        if first { finished.signal() }
    }

    /// The timers stop with the session (on the queue).
    func cancelTimers() {
        deadlineTimer?.cancel()
        statusTimer?.cancel()
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
