import Dispatch
import LiveState
import LiveView
import Sensors
import Synchronization

/// The preview's event streams for one run (docs/preview.md): every session's updates come in
/// through its `PreviewTap` (the same `EncodedUpdate` its sinks get, on the session's queue), and
/// go out to each connected browser: `/v1/events` (every update, each activity's sinks report,
/// the session clock) and `/v1/heart-rate` (one strap's rate, for overlays). A new connection
/// first gets what `EventReplay` keeps; a keep-alive comment goes to every client every
/// `keepAliveInterval`, the one timer, running only while someone is connected.
public final class PreviewHub: Sendable {
    /// Browsers at once (pages and overlays): a page per person watching, a few overlays; beyond
    /// this a connection is refused (503) rather than a thread and a backlog spent on each.
    public static let clientLimit = 64
    /// Unsent bytes a client may fall behind (~250 updates) before it is dropped: it reconnects
    /// with Last-Event-ID and catches up from the window. With `clientLimit`, at most 8 MiB.
    static let backlogLimit = 128 * 1024
    /// Proxies close a stream silent for 30–60 s; a comment this often keeps it open, and is all
    /// an idle page costs the process.
    public static let keepAliveInterval: DispatchTimeInterval = .seconds(15)
    /// How soon a browser reconnects after the stream broke (the `retry:` field).
    static let reconnectMilliseconds = 2000

    private struct State {
        var replay = EventReplay()
        /// Each strap's latest `heart-rate` message, for an overlay connecting.
        var heartRates: [String: [UInt8]] = [:]
        var clients: [ObjectIdentifier: EventClient] = [:]
        var taps: [PreviewTap] = []
        var keepAlive: (any DispatchSourceTimer)?
    }

    private let state = Mutex(State())
    private let queue = DispatchQueue(label: "hrbridge.preview")

    public init() {}

    /// Why a connection was not opened.
    public enum Refusal: Error, Equatable {
        /// `clientLimit` browsers are connected already.
        case tooManyClients
        /// No strap of this run has that name; the names it has.
        case unknownStrap(known: [String])
    }

    /// How the straps of this run are named (`ctl --strap`), in order.
    public var strapNames: [String] { state.withLock { $0.taps.map(\.strap) } }

    /// `/v1/events`: the catch-up (after `lastEventID`, else each shown activity's latest), then the stream.
    public func openEvents(lastEventID: String?) -> Result<EventClient, Refusal> {
        open(.events) { state in
            var first = EventStreamFrame.retry(milliseconds: Self.reconnectMilliseconds)
            let clock = state.taps.first?.clockNow()
            if let clock { first += PreviewMessages.clock(now: clock.now, speed: clock.speed) }
            first += state.replay.catchUp(after: lastEventID, at: clock?.now ?? Timestamp(microsecondsSinceUnixEpoch: .max))
            return first
        }
    }

    /// `/v1/heart-rate`: `strap`'s latest rate (the first strap's without a name), then its stream.
    public func openHeartRate(strap: String?) -> Result<EventClient, Refusal> {
        let names = strapNames
        guard let name = strap.map({ wanted in names.first { $0.lowercased() == wanted.lowercased() } }) ?? names.first else {
            return .failure(.unknownStrap(known: names))
        }
        return open(.heartRate(strap: name)) { state in
            EventStreamFrame.retry(milliseconds: Self.reconnectMilliseconds) + (state.heartRates[name] ?? [])
        }
    }

    private func open(_ stream: EventClient.Stream, first: (State) -> [UInt8]) -> Result<EventClient, Refusal> {
        state.withLock { state in
            guard state.clients.count < Self.clientLimit else { return .failure(.tooManyClients) }
            let client = EventClient(stream: stream, first: first(state)) { [weak self] gone in self?.remove(gone) }
            state.clients[ObjectIdentifier(client)] = client
            if state.keepAlive == nil { state.keepAlive = startKeepAlive() }
            return .success(client)
        }
    }

    private func remove(_ client: EventClient) {
        state.withLock { state in
            state.clients[ObjectIdentifier(client)] = nil
            if state.clients.isEmpty {
                state.keepAlive?.cancel()
                state.keepAlive = nil
            }
        }
    }

    /// Closes every stream (the run ends): each browser's `next` returns at once.
    public func closeAll() {
        for client in state.withLock({ Array($0.clients.values) }) { client.close() }
    }

    // MARK: - From the sessions

    /// A session's way in; `zoneBoundaries` colour the overlay.
    func tap(strap: String, zoneBoundaries: [Int], clock: SessionClock, refreshSinks: @escaping @Sendable () -> Void) -> PreviewTap {
        let tap = PreviewTap(hub: self, strap: strap, zoneBoundaries: zoneBoundaries, clock: clock, refreshSinks: refreshSinks)
        state.withLock { $0.taps.append(tap) }
        return tap
    }

    func publish(update: ActivityUpdate, message: [UInt8], heartRate: [UInt8], strap: String) {
        state.withLock { state in
            state.replay.record(update, message: message)
            state.heartRates[strap] = heartRate
            send(in: &state) { stream in
                switch stream {
                case .events: message
                case let .heartRate(wanted): wanted == strap ? heartRate : nil
                }
            }
        }
    }

    func publish(sinks message: [UInt8], of activity: String) {
        state.withLock { state in
            state.replay.record(sinks: message, of: activity)
            send(in: &state) { $0 == .events ? message : nil }
        }
    }

    /// Queues each client's bytes (`bytes(stream)`, nil: none for that stream); a client too far
    /// behind has closed itself and is forgotten here.
    private func send(in state: inout State, _ bytes: (EventClient.Stream) -> [UInt8]?) {
        for (key, client) in state.clients {
            guard let bytes = bytes(client.stream), !client.enqueue(bytes) else { continue }
            state.clients[key] = nil
        }
        if state.clients.isEmpty {
            state.keepAlive?.cancel()
            state.keepAlive = nil
        }
    }

    /// Every `keepAliveInterval` while a client is connected: the comment to each, and each
    /// session asked for its sinks' counters (a delivery since the last update changes them).
    private func startKeepAlive() -> any DispatchSourceTimer {
        let timer = DispatchSource.makeTimerSource(queue: queue)
        timer.schedule(deadline: .now() + Self.keepAliveInterval, repeating: Self.keepAliveInterval)
        timer.setEventHandler { [weak self] in
            guard let self else { return }
            let taps = state.withLock { state in
                send(in: &state) { _ in EventStreamFrame.keepAlive }
                return state.taps
            }
            for tap in taps { tap.refreshSinks() }
        }
        timer.resume()
        return timer
    }
}
