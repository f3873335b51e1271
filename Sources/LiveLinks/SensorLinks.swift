import BlueZ
import Dispatch
import FoundationEssentials
import Sensors
import Synchronization
import SessionState
import Platform
import Session

/// The BlueZ side of `run` and `record`: the system bus and bluetoothd's mirror, shared, and one
/// `SensorLink` per strap, each delivering on its own serial queue (the consumer's, when it names one)
/// straight to that strap's consumer (no hop on the hot path), so one strap's trouble never stalls another. Each link stops on its
/// own (`stop(_:)`: notifications stopped and the strap disconnected within the policy's 2 s).
public final class SensorLinks: Sendable {
    /// One strap: what to find, what to do with each event (nil, or why the strap must stop), and
    /// what to do after its last event (on the same queue, so nothing is delivered after it). `queue`:
    /// the consumer's own serial queue, for the link to deliver on (nil: a queue of the link's own).
    public struct Link: Sendable {
        var selector: SensorSelector
        /// The strap itself, or the distance sensor beside it (its events are tagged so).
        var role: SensorRole
        var queue: DispatchQueue?
        var consume: @Sendable (SensorEvent) -> SessionError?
        var ended: @Sendable () -> Void

        public init(selector: SensorSelector, role: SensorRole = .strap, queue: DispatchQueue? = nil,
                    consume: @escaping @Sendable (SensorEvent) -> SessionError?, ended: @escaping @Sendable () -> Void) {
            self.selector = selector
            self.role = role
            self.queue = queue
            self.consume = consume
            self.ended = ended
        }
    }

    private struct State {
        var tasks: [SensorSelector: Task<Void, Never>] = [:]
        /// Stopped before its link existed: it is not started.
        var stopped: Set<SensorSelector> = []
        /// The first reason a strap stopped without being asked (Bluetooth unusable, a write failed).
        var failure: SessionError?
        /// Between `sleep()` and `wake()`: links let go for the machine's sleep, to be started again.
        var sleeping = false
        /// What `wake()` needs to start a link again.
        var launched: [SensorSelector: (link: Link, client: BlueZClient, gates: AdapterGates)] = [:]
    }

    private let state = Mutex(State())
    private let console: any SessionConsole
    private let opened = DispatchSemaphore(value: 0)

    public init(console: any SessionConsole) { self.console = console }

    /// Opens the bus and the mirror, then starts a link per sensor; returns at once. When Bluetooth
    /// cannot be used at all (no system bus, permission denied), every link ends with that failure.
    public func start(_ links: [Link]) {
        Task { [self] in
            defer { opened.signal() }
            let client: BlueZClient
            do throws(SessionError) {
                client = try await BluetoothAccess.open()
            } catch {
                record(error)
                for link in links { link.ended() }
                return
            }
            let (tree, running) = (await client.tree, await client.isBlueZRunning)
            if let problem = BluetoothAccess.problem(in: tree, isBlueZRunning: running) {
                console.warn("\(problem)\nWaiting until that is fixed (Ctrl-C to stop).")
            }
            let gates = AdapterGates()
            for link in links { launch(link, client: client, gates: gates) }
        }
    }

    private func launch(_ strap: Link, client: BlueZClient, gates: AdapterGates) {
        let events = strap.queue ?? DispatchQueue(label: "hrbridge.strap-events")
        let environment = LinkEnvironment(clock: { SessionClock.real.now()! }, log: { [console] in console.warn($0) }, events: events,
                                          stopReason: { [self] in state.withLock(\.sleeping) ? SensorEvent.Kind.systemSleep : SensorEvent.Kind.stoppedByBridge })
        let link = SensorLink(selector: strap.selector, role: strap.role, client: client, gates: gates, environment: environment) { [self] event in
            guard let failure = strap.consume(event) else { return }
            record(failure)
            stop(strap.selector)
        }
        state.withLock { state in
            guard !state.stopped.contains(strap.selector) else {
                events.async { strap.ended() }
                return
            }
            state.launched[strap.selector] = (strap, client, gates)
            state.tasks[strap.selector] = Task { [self] in
                do throws(SensorLinkError) {
                    try await link.run()
                } catch {
                    // Retrying cannot help (the bus connection is gone): this strap's session ends now.
                    console.warn("\(error.description); giving up on this strap")
                    record(.unavailable(error.description))
                }
                // Let go for the machine's sleep: `wake()` starts the link again, the session goes on.
                if self.state.withLock({ $0.sleeping && !$0.stopped.contains(strap.selector) }) { return }
                // After the last event the link queued; the task ends only then, so `waitForAll`
                // returns with every event consumed (the queue may be the busy session's).
                await withCheckedContinuation { continuation in
                    events.async {
                        strap.ended()
                        continuation.resume()
                    }
                }
            }
        }
    }

    /// Lets go of one strap (any thread): its link stops notifications and disconnects.
    public func stop(_ selector: SensorSelector) {
        state.withLock { state in
            state.stopped.insert(selector)
            state.tasks[selector]?.cancel()
        }
    }

    /// The machine is about to sleep: every link stops notifications and disconnects (within the
    /// policy's 2 s), its `disconnected` saying `system-sleep` (the session shows the sensor lost);
    /// returns once all have let go. Their sessions go on.
    public func sleep() async {
        let tasks = state.withLock { state in
            state.sleeping = true
            return state.tasks.filter { !state.stopped.contains($0.key) }.map(\.value)
        }
        for task in tasks { task.cancel() }
        for task in tasks { await task.value }
    }

    /// The machine woke: every link let go by `sleep()` starts again (connect, subscribe, stream).
    public func wake() {
        let relaunch = state.withLock { state in
            state.sleeping = false
            return state.launched.filter { !state.stopped.contains($0.key) }.map(\.value)
        }
        for (strap, client, gates) in relaunch { launch(strap, client: client, gates: gates) }
    }

    public func stopAll() {
        state.withLock { state in
            for (selector, task) in state.tasks {
                state.stopped.insert(selector)
                task.cancel()
            }
        }
    }

    /// Blocks until the bus was opened (or not) and every link has stopped and its events were
    /// consumed (call after a stop).
    public func waitForAll() {
        opened.wait()
        opened.signal()
        let tasks = state.withLock { Array($0.tasks.values) }
        runBlocking { for task in tasks { await task.value } }
    }

    public var failure: SessionError? { state.withLock { $0.failure } }

    private func record(_ failure: SessionError) {
        state.withLock { $0.failure = $0.failure ?? failure }
    }
}
