import BlueZ
import Foundation
import HeartRate
import Synchronization
import Trace

/// `run` and `record`: one link per strap, their events merged, written losslessly to a trace
/// when asked, and fed to the pipeline. Ends on SIGINT/SIGTERM after the links have stopped
/// notifications and disconnected, or when a link meets an error retrying cannot fix.
struct LiveSession {
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

        let gates = AdapterGates()
        let environment = LinkEnvironment(clock: BluetoothAccess.wallClock, log: log)
        let links = selectors.map { StrapLink(selector: $0, client: client, gates: gates, environment: environment) }
        let (merged, mergedFeed) = AsyncStream.makeStream(of: StrapEvent.self)
        let failure = Locked<CLIError?>(nil)
        let tasks = links.map { link in
            Task {
                do {
                    try await link.run()
                } catch {
                    failure.withLock { $0 = $0 ?? .unavailable("\(error)") }
                }
            }
        }
        // Forwarders are not children of the link tasks: cancelling a link must not cut off
        // the events its clean-up still emits (the final `disconnected`).
        let forwarders = links.map { link in Task { for await event in link.events { mergedFeed.yield(event) } } }
        let stopAll: @Sendable () -> Void = { for task in tasks { task.cancel() } }
        let signals = ShutdownSignals { number in
            log("\(number == SIGINT ? "SIGINT" : "SIGTERM"): stopping notifications and disconnecting")
            stopAll()
        }
        Task {
            for task in tasks { await task.value }
            for forwarder in forwarders { await forwarder.value }
            mergedFeed.finish()
        }

        let (forPipeline, pipelineFeed) = AsyncStream.makeStream(of: StrapEvent.self)
        let recording = Task { [recordPath, selectors] () -> CLIError? in
            var recorder = TraceRecorder(path: recordPath, selector: selectors.first)
            defer { pipelineFeed.finish() }
            for await event in merged {
                do {
                    try recorder.append(event)
                } catch {
                    stopAll()
                    return .cannotCreate("\(error)")
                }
                pipelineFeed.yield(event)
            }
            return nil
        }
        if feedsPipeline {
            await StrapEventPipeline.consume(forPipeline, console: console)
        } else {
            for await _ in forPipeline {}
        }
        withExtendedLifetime(signals) {}
        if let error = await recording.value { return .failure(error) }
        if let error = failure.withLock({ $0 }) {
            stopAll()
            return .failure(error)
        }
        return .success(())
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
