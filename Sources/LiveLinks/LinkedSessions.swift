import BlueZ
import Sensors
import SessionState
import Session

/// `run` once its sessions are made: each strap's link delivers straight into the strap's session,
/// on the session's queue (a value goes from the socket through the engine on one thread), the
/// sessions run until their sources end or a signal stops them, then every link stops.
public enum LinkedSessions {
    public struct Strap {
        var selector: SensorSelector
        /// The foot pod or bike sensor feeding the same session with distance, if any.
        var distance: SensorSelector?
        var session: LiveSession
        /// `--record`: every event written exactly as it arrived, before the session sees it. Should a
        /// write fail (a full disk), the trace is cut there, said at once, and the activity goes on:
        /// the workout on the phone matters more than its record, and a trace that stops at a said
        /// point drops no sample silently. The run then exits with that failure (73).
        var recorder: TraceRecorder?

        public init(selector: SensorSelector, distance: SensorSelector? = nil, session: LiveSession, recorder: TraceRecorder?) {
            self.selector = selector
            self.distance = distance
            self.session = session
            self.recorder = recorder
        }
    }

    /// Returns once every session has ended and every link has stopped with its events consumed.
    /// Across the machine's sleep (logind), the links let go and come back and the sessions go on.
    public static func run(_ straps: [Strap], links: SensorLinks, console: any SessionConsole) throws(SessionError) {
        links.start(straps.flatMap { strap in
            let (session, recorder) = (strap.session, strap.recorder)
            // Both links deliver on the session's queue: the recorder and the engine see one order,
            // and the same times. The strap's link decides the session's end; the distance sensor's
            // only stops with it.
            return SensorLinks.Link.workout(strap: strap.selector, distance: strap.distance, queue: session.queue, consume: { event in
                if let cut = recorder?.append(event) { session.warnOnQueue("\(cut.message); the activity and its sinks go on") }
                session.deliverOnQueue(event)
                return nil
            }, strapEnded: { session.endOfInput() }, distanceEnded: {})
        })
        let sessions = straps.map(\.session)
        let sleepWatch = SleepWatch(console: console, actions: sleepActions(sessions, links: links))
        var outcome: SessionError?
        do {
            try SessionRunner.run(sessions)
        } catch {
            outcome = error
        }
        sleepWatch.stop()
        // The sessions have ended; each link has been told to stop (onStop) or has stopped.
        links.stopAll()
        links.waitForAll()
        // A strap that could not go on (no bus) or a cut --record trace says more than the stop after it.
        let failure = links.failure ?? straps.lazy.compactMap { $0.recorder?.failure }.first
        if let outcome {
            if case .stopped = outcome, let failure { throw failure }
            throw outcome
        }
        if let failure { throw failure }
    }

    /// Before sleep: every link lets go (its `disconnected` is the sensor-lost update), then every
    /// session's sinks settle in what is left of the time. After resume: the links start again and
    /// each session checks its deadlines against the clock at once.
    private static func sleepActions(_ sessions: [LiveSession], links: SensorLinks) -> SleepWatch.Actions {
        SleepWatch.Actions(prepare: { seconds in
            let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
            await links.sleep()
            let left = deadline - ContinuousClock.now
            let leftSeconds = max(0, Double(left.components.seconds) + Double(left.components.attoseconds) / 1e18)
            await withTaskGroup(of: Void.self) { group in
                for session in sessions {
                    group.addTask {
                        await withCheckedContinuation { done in session.settleBeforeSleep(within: leftSeconds) { done.resume() } }
                    }
                }
            }
        }, resume: {
            links.wake()
            for session in sessions { session.resumedFromSleep() }
        })
    }
}
