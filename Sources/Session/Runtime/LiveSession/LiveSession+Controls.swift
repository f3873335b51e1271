import Dispatch
import Forwarding
import LiveState
import SessionState

/// What reaches a running session from outside its source: signals, a person's or the service's
/// controls (pause, resume, label, end; `ctl`, D-Bus, MQTT, HTTP), and the machine's sleep.
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
            console.warn("\(SessionError.signalName(signal)): ending the activity and flushing the sinks")
            finish(.stopped(signal: signal), at: clock.now() ?? lastEventTime)
        }
    }

    /// The one entry point of every control surface (`hrbridge ctl` over D-Bus, MQTT's control
    /// topic, HTTP): the Linux counterparts of the activity's intent buttons. `activity`: the one the
    /// caller means (HTTP names it; a different or unknown one is not touched); nil: whichever runs.
    /// An end stops this session as a signal would: the source lets go, the final state goes out and
    /// the sinks flush, before `reply` runs.
    func apply(_ action: ControlAction, to activity: String? = nil, reply: @escaping @Sendable (ControlOutcome) -> Void) {
        queue.async { [self] in
            if let activity, activity != journal.currentUpdate?.activityID {
                return reply(journal.hasEnded(activity) ? .ended : .unknownActivity(activity))
            }
            guard running else { return reply(.ended) }
            guard let input = action.engineInput else {
                onStop()
                finish(.sourceEnded, at: clock.now() ?? lastEventTime)
                return reply(journal.lastUpdate.map { .applied(ActivityState($0)) } ?? .ended)
            }
            guard let now = clock.now() else { return reply(.ended) }
            do throws(LiveStateError) {
                send(try feed.control(input, at: now))
                pump() // a pause or resume moves the deadlines
                reply((journal.currentUpdate ?? journal.lastUpdate).map { .applied(ActivityState($0)) } ?? .ended)
            } catch {
                reply(.refused("\(error)"))
            }
        }
    }

    /// `apply`, waited for.
    func apply(_ action: ControlAction, to activity: String? = nil) async -> ControlOutcome {
        await withCheckedContinuation { continuation in apply(action, to: activity) { continuation.resume(returning: $0) } }
    }

    /// Commands a sink received (MQTT's control topic) go where `hrbridge ctl`'s do; push tokens
    /// (its push-token topics) where HTTP's go.
    func connectSinkControl() {
        sinks.control.connect({ [weak self] action, reply in
            guard let self else { return reply(ControlOutcome.endedText) }
            apply(action) { reply($0.refusal) }
        }, tokens: { [weak self] request, reply in
            guard let self else { return reply(.failure(PushTokenRefusal(.unavailable, "the session is over"))) }
            pushToken(request, reply: reply)
        })
    }

    /// The machine is about to sleep, and the links have let go (their `disconnected` went through
    /// the engine: sensor-lost, priority 10): the sinks deliver what waits, for up to `seconds`, so the
    /// phone shows the truth while this machine is away. `done` runs afterwards (on the queue).
    package func settleBeforeSleep(within seconds: Double, done: @escaping @Sendable () -> Void) {
        queue.async { [self] in
            if running { sinks.settle(within: seconds) }
            done()
        }
    }

    /// The machine woke: the engine's deadlines are checked against the clock at once, so one that
    /// passed during the sleep (a give-up, the time limit) runs now, at its own time, and the timer
    /// is set afresh for the next. Whatever clock an armed timer was on, nothing waits for it.
    package func resumedFromSleep() {
        queue.async { [self] in
            guard running, isLive else { return }
            deadlineTimerDue = nil
            pump()
        }
    }
}
