import Dispatch
import LiveState

/// What reaches a running session from outside its source: signals, a person's or the service's
/// controls (pause, resume, label, end; `ctl`, D-Bus, MQTT), and the machine's sleep.
extension LiveSession {
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
    func connectSinkControl() {
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
}
