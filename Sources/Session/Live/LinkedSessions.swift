import BlueZ

/// `run` once its sessions are made: each strap's link delivers straight into the strap's session,
/// on the session's queue (a value goes from the socket through the engine on one thread), the
/// sessions run until their sources end or a signal stops them, then every link stops.
public enum LinkedSessions {
    public struct Strap {
        var selector: BlueZ.StrapSelector
        var session: LiveSession
        /// `--record`: every event written exactly as it arrived, before the session sees it.
        var recorder: TraceRecorder?

        public init(selector: BlueZ.StrapSelector, session: LiveSession, recorder: TraceRecorder?) {
            self.selector = selector
            self.session = session
            self.recorder = recorder
        }
    }

    /// Returns once every session has ended and every link has stopped with its events consumed.
    public static func run(_ straps: [Strap], links: StrapLinks) throws(SessionError) {
        links.start(straps.map { strap in
            let (session, recorder) = (strap.session, strap.recorder)
            return StrapLinks.Strap(
                selector: strap.selector,
                queue: session.queue,
                consume: { event in
                    if let failure = recorder?.append(event) { return failure }
                    session.deliverOnQueue(event)
                    return nil
                },
                ended: { session.endOfInput() }
            )
        })
        var outcome: SessionError?
        do {
            try SessionRunner.run(straps.map(\.session))
        } catch {
            outcome = error
        }
        // The sessions have ended; each link has been told to stop (onStop) or has stopped.
        links.stopAll()
        links.waitForAll()
        // A strap that could not go on (no bus, a failed --record write) says more than the stop after it.
        if let outcome {
            if case .stopped = outcome, let failure = links.failure { throw failure }
            throw outcome
        }
        if let failure = links.failure { throw failure }
    }
}
