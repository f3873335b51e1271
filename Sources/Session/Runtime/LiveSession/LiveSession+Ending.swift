import LiveState
import Sensors
import SessionState

/// Updates out through the journal, and the session's end: the final state, the sinks flushed,
/// what reached them struck from the state file, a failure reported once.
extension LiveSession {
    /// Each update through the journal (state file first, then the sinks) until something fails.
    func send(_ updates: [ActivityUpdate]) {
        for update in updates where failure == nil {
            do throws(ActivityJournal.Failure) {
                try journal.append(update)
            } catch {
                switch error {
                case let .stateFile(error): fail(error, ending: nil)
                case let .sink(error): fail(error, ending: .stopped)
                }
            }
        }
    }

    /// Ends the activity (at `time`, as `cause`), flushes the sinks (ends they cannot deliver are
    /// spooled), then strikes them from the state file: what it listed has reached them or their
    /// spool. What stays is owed to a sink that failed or that this run does not have.
    /// `reason`: what made the session give up, reported once the end is out.
    func finish(_ ending: Ending, at time: Timestamp?, as cause: EndCause = .stopped, failure reason: SessionError? = nil) {
        guard running else { return }
        phase = .over
        cancelTimers()
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
        journal.close(recordable: failure == nil, console: console)
        settle(failure == nil ? ending : .failed, failure: failure)
    }

    /// Gives up after `error`, still ending the activity (as `cause`, at the last event) through the
    /// sinks that work. `cause` nil: the state file failed, and an end it cannot record first is left
    /// to the next run's recovery.
    func fail(_ error: SessionError, ending cause: EndCause?) {
        guard running else {
            // Failed on the end itself: the first failure is what the session reports, a later one is said.
            if failure == nil { failure = error } else { console.warn(error.message) }
            return
        }
        finish(.failed, at: cause == nil ? nil : lastEventTime, as: cause ?? .stopped, failure: error)
    }
}
