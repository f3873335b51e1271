import BlueZ
import Foundation
import HeartRate
import Synchronization
import Trace

/// `run` and `record` on live straps: one link per strap, their events merged, written losslessly to a trace
/// when asked, and fed to the pipeline. Ends on SIGINT/SIGTERM after the links have stopped
/// notifications and disconnected, or when a link meets an error retrying cannot fix.
struct StrapRun {
    var selectors: [StrapSelector]
    var recordPath: String?
    var feedsPipeline: Bool

    func run(console: Console) throws(CLIError) {
        let box = Unchecked(value: console)
        let outcome: Result<Void, CLIError> = runBlocking { [self] in await run(console: box.value) }
        try outcome.get()
    }

    private func run(console: Console) async -> Result<Void, CLIError> {
        let logLock = Locked(())
        let box = Unchecked(value: console)
        let log: @Sendable (String) -> Void = { message in logLock.withLock { _ in box.value.warn(message) } }
        let client: BlueZClient
        do { client = try await BluetoothAccess.open() } catch { return .failure(error) }
        let (tree, running) = (await client.tree, await client.isBlueZRunning)
        if let problem = BluetoothAccess.problem(in: tree, isBlueZRunning: running) {
            log("\(problem)\nWaiting until that is fixed (Ctrl-C to stop).")
        }

        // One serial queue for every link's events: the consumer (recorder, pipeline) runs
        // there, called straight from the notification socket's handler, with no task hop.
        let eventQueue = DispatchQueue(label: "hrbridge.events")
        let consumer = EventConsumer(recorder: TraceRecorder(path: recordPath, selector: selectors.first),
                                     pipeline: feedsPipeline ? StrapEventPipeline(console: console) : nil)
        let gates = AdapterGates()
        let environment = LinkEnvironment(clock: BluetoothAccess.wallClock, log: log, events: eventQueue)
        let failure = Locked<CLIError?>(nil)
        let tasksBox = Locked<[Task<Void, Never>]>([])
        let stopAll: @Sendable () -> Void = { for task in tasksBox.withLock({ $0 }) { task.cancel() } }
        let links = selectors.map { selector in
            StrapLink(selector: selector, client: client, gates: gates, environment: environment) { event in
                if let error = consumer.consume(event) {
                    failure.withLock { $0 = $0 ?? error }
                    stopAll()
                }
            }
        }
        let tasks = links.map { link in
            Task {
                do {
                    try await link.run()
                } catch {
                    failure.withLock { $0 = $0 ?? .unavailable("\(error)") }
                    stopAll()
                }
            }
        }
        tasksBox.withLock { $0 = tasks }
        let signalled = Locked(false)
        let signals = ShutdownSignals { number in
            // A second signal means "now": do not wait for a clean-up that may be stuck.
            if signalled.withLock({ seen in defer { seen = true }; return seen }) { exit(128 + number) }
            log("\(number == SIGINT ? "SIGINT" : "SIGTERM"): stopping notifications and disconnecting (again to quit at once)")
            stopAll()
        }
        for task in tasks { await task.value }
        await withCheckedContinuation { done in eventQueue.async { done.resume() } } // the last events
        withExtendedLifetime(signals) {}
        if let error = failure.withLock({ $0 }) { return .failure(error) }
        return .success(())
    }
}

/// What happens to each event, on the events queue: recorded first (exactly what arrived),
/// then fed to the pipeline. Stops recording after a write failure and reports it once.
final class EventConsumer: @unchecked Sendable {
    private var recorder: TraceRecorder
    private let pipeline: StrapEventPipeline?
    private var failed = false

    init(recorder: TraceRecorder, pipeline: StrapEventPipeline?) {
        self.recorder = recorder
        self.pipeline = pipeline
    }

    func consume(_ event: StrapEvent) -> CLIError? {
        guard !failed else { return nil }
        do {
            try recorder.append(event)
        } catch {
            failed = true
            return .cannotCreate("\(error)")
        }
        pipeline?.consume(event)
        return nil
    }
}

/// Writes every event as it arrives; the header is written with the first event, whose time
/// becomes the trace's start. Times are kept monotonic: a value read before the link's
/// `connected` was stamped is written at the later time, never reordered.
struct TraceRecorder {
    let path: String?
    let selector: StrapSelector?
    private var writer: TraceWriter?
    private var lastTime: Timestamp?

    init(path: String?, selector: StrapSelector?) {
        self.path = path
        self.selector = selector
    }

    mutating func append(_ event: StrapEvent) throws(TraceWriter.Failure) {
        guard let path else { return }
        if writer == nil {
            var header = TraceHeader(start: event.time)
            switch selector {
            case let .address(address): header.address = address
            case let .name(name): header.name = name
            default: break
            }
            writer = try TraceWriter(path: path, header: header)
        }
        var event = event
        if let lastTime, event.time < lastTime { event.time = lastTime }
        lastTime = event.time
        try writer!.append(event)
    }
}

/// A Mutex that closures can share.
final class Locked<Value: Sendable>: Sendable {
    private let mutex: Mutex<Value>
    init(_ value: Value) { mutex = Mutex(value) }
    func withLock<T: Sendable>(_ body: (inout Value) -> T) -> T { mutex.withLock { body(&$0) } }
}
