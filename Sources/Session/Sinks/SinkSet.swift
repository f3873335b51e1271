import Forwarding
import FoundationEssentials
import LiveState
import LiveView
import Sensors
import Synchronization
import SessionState

/// Every sink of one command: each update goes to all of them in order; at the end each finishes
/// (network sinks deliver what they can, then spool) and its counters are logged.
public final class SinkSet {
    private let sinks: [any UpdateSink]
    /// Those fed the workout's samples one by one as well (a Bluetooth peripheral).
    private let sampleSinks: [any SampleSink]
    private var sampleReader = SampleReader()
    /// Each sink's kind (`apns`, `mqtt`), in the sinks' order, for metrics.
    private let kinds: [String]
    let relay: SinkLogRelay
    /// Commands the sinks received (MQTT's control topic), for the session these sinks serve.
    let control: SinkControlRelay
    /// The strap's push tokens registered at run time, which its APNs sinks route by.
    let pushTokens: PushTokenBook?
    /// The strap's broadcast channels, which an APNs sink with `--apns-broadcast` publishes on.
    let channels: ChannelBook
    private let console: any SessionConsole
    private let grace: Double
    private let statusInterval: Double?
    private var lastStatus = Date()
    /// The preview's way in, when the run serves one (`--listen`): every update the sinks get,
    /// and their counters after it.
    var preview: PreviewTap?
    /// Sinks whose output failed (a closed pipe, a full disk): skipped from then on, so the others
    /// still get the end the session sends before it gives up.
    private var failed: Set<ObjectIdentifier> = []

    /// Seconds network sinks keep delivering at exit: enough for a few retries, short enough for a
    /// service manager's stop timeout (systemd's default is 90 s).
    public static let defaultGrace: Double = 10

    /// `relay` must be the one whose `log` the network sinks were given.
    /// `kinds`: each sink's kind name (SinkKind.name), as `make` knows them; nil says `other`.
    public init(sinks: [any UpdateSink], kinds: [String]? = nil, relay: SinkLogRelay, control: SinkControlRelay = SinkControlRelay(),
                pushTokens: PushTokenBook? = nil, channels: ChannelBook = ChannelBook(), console: any SessionConsole,
                grace: Double = defaultGrace, statusInterval: Double? = nil) {
        self.sinks = sinks
        sampleSinks = sinks.compactMap { $0 as? any SampleSink }
        self.kinds = kinds ?? sinks.map { _ in "other" }
        self.relay = relay
        self.control = control
        self.pushTokens = pushTokens
        self.channels = channels
        self.console = console
        self.grace = grace
        self.statusInterval = statusInterval
    }

    /// A lifecycle server, APNs or a broker among them: somewhere times and activity ids mean something to a receiver.
    public var hasNetworkSink: Bool { sinks.contains { $0.reachesReceivers } }

    /// Each sink's name (`stdout`, `file:PATH`, a URL, `apns`), as the state file records them.
    var names: [String] { sinks.map(\.name) }

    /// The names of the sinks whose output has not failed: after `finish()`, those that have every
    /// update they were given, delivered or spooled, but the activities in `owed`.
    var workingNames: [String] { sinks.filter { !failed.contains(ObjectIdentifier($0)) }.map(\.name) }

    /// After `finish()`: by sink name, the activities whose ends that sink holds for a later run
    /// (an APNs push token never came): they stay owed in the state file.
    var owed: [String: Set<String>] {
        var owed: [String: Set<String>] = [:]
        for sink in sinks where !sink.owedActivities.isEmpty { owed[sink.name, default: []].formUnion(sink.owedActivities) }
        return owed
    }

    /// Lifecycle steps the network sinks could not deliver in their grace and spooled for a later run.
    public var spooledCount: Int { sinks.reduce(0) { $0 + $1.counters.spooled } }

    /// Each sink's counters as one line, for status.
    var counterSummaries: [(name: String, summary: String)] {
        sinks.map { sink in
            if let peripheral = sink as? any PeripheralStatus { return (sink.name, peripheral.peripheralSnapshot.summary) }
            var summary = sink.counters.summary
            if sink.reachesReceivers {
                summary += ", waiting \(sink.waitingCount)"
                for (activity, reason) in sink.heldActivities.sorted(by: { $0.key < $1.key }) { summary += "; \(activity) waits: \(reason)" }
            }
            return (sink.name, summary)
        }
    }

    /// What each sink did and holds, for `/metrics` and `/readyz` (read on the session's queue).
    var snapshots: [SinkSnapshot] {
        zip(sinks, kinds).map { sink, kind in
            SinkSnapshot(kind: kind, counters: sink.counters, waiting: sink.waitingCount, spoolBytes: sink.spoolBytes,
                         halted: failed.contains(ObjectIdentifier(sink)) ? "its output failed" : sink.haltedReason,
                         peripheral: (sink as? any PeripheralStatus)?.peripheralSnapshot)
        }
    }

    /// `--sink-status S`, if asked for: a live session logs the counters on its own timer.
    var statusPeriod: Double? { statusInterval }

    /// Sends `update` to every sink that has not failed, or only to those named in `only` (a
    /// recovered end goes where its activity went). A sink that fails is left out from then on, but
    /// the rest still get the update; the first failure is thrown after them.
    public func accept(_ encoded: EncodedUpdate, only: [String]? = nil) throws(SessionError) {
        var firstFailure: SinkError?
        for sink in sinks where only?.contains(sink.name) ?? true && !failed.contains(ObjectIdentifier(sink)) {
            do {
                try sink.accept(encoded)
            } catch {
                failed.insert(ObjectIdentifier(sink))
                firstFailure = firstFailure ?? error
            }
        }
        preview?.publish(encoded, sinks: previewReports)
        relay.drain(into: console)
        logStatusIfDue()
        if let firstFailure { throw .unwritable(firstFailure.description) }
    }

    /// Some sink takes the workout's samples one by one (`take`).
    var takesSamples: Bool { !sampleSinks.isEmpty }

    /// One of the workout's events, after the engine took it: its samples to the sample sinks.
    /// `machineHeartRateShown`: the activity shows the distance sensor's heart rate now.
    func take(_ event: SensorEvent, machineHeartRateShown: Bool) {
        for sample in sampleReader.samples(in: event, machineHeartRateShown: machineHeartRateShown) {
            for sink in sampleSinks where !failed.contains(ObjectIdentifier(sink)) { sink.take(sample) }
        }
    }

    /// Each sink's counters as the preview's strip shows them.
    private var previewReports: [SinkReport] {
        sinks.map { sink in
            let counters = sink.counters
            return SinkReport(name: sink.name, sent: counters.sent, superseded: counters.superseded,
                              waiting: sink.waitingCount, lastError: counters.lastError,
                              detail: (sink as? any PeripheralStatus)?.peripheralSnapshot.summary)
        }
    }

    /// The counters again, for the preview, if they changed since the last update (a delivery).
    func refreshPreview() {
        preview?.publish(sinks: previewReports)
    }

    /// The first sink that failed while others went on (`acceptGoingOn`): what the command reports
    /// at its end (exit 73), once the activity has ended everywhere else.
    public private(set) var firstFailure: SessionError?

    /// `accept` for a running activity: a sink that fails is said at once and left out, and the
    /// activity goes on at the others. A full disk under a file sink must not end the workout on
    /// the phone; what that file missed is owed to it in the state file. Throws only when no sink
    /// is left to tell anything to.
    public func acceptGoingOn(_ encoded: EncodedUpdate) throws(SessionError) {
        do {
            try accept(encoded)
        } catch {
            let working = workingNames
            guard !working.isEmpty else { throw error }
            if firstFailure == nil { firstFailure = error }
            console.warn("\(error.message); left out from now on, the activity goes on at \(working.joined(separator: ", "))")
        }
    }

    /// `acceptGoingOn` for an update no state file keeps (`replay --fast`): encoded here, once for every sink.
    public func acceptGoingOn(_ update: ActivityUpdate) throws(SessionError) {
        try acceptGoingOn(EncodedUpdate(update))
    }

    /// Log lines the delivery threads left, now (a live session calls this when the relay says so).
    func drainLogs() { relay.drain(into: console) }

    /// The status line, if `--sink-status` asked for one and its interval has passed.
    func logStatusIfDue() {
        guard let statusInterval, Date().timeIntervalSince(lastStatus) >= statusInterval else { return }
        lastStatus = Date()
        logCounters(prefix: "status")
    }

    /// Before the machine sleeps: each sink that still works delivers what waits, all within
    /// `seconds` from now, and stays open.
    func settle(within seconds: Double) {
        let deadline = Date(timeIntervalSinceNow: seconds)
        for sink in sinks where !failed.contains(ObjectIdentifier(sink)) {
            sink.settle(within: max(0, deadline.timeIntervalSinceNow))
        }
        relay.drain(into: console)
    }

    /// Ends every sink and logs what each did. Safe to call once, on success or failure.
    public func finish() {
        for sink in sinks { sink.finish(grace: grace) }
        relay.drain(into: console)
        logCounters(prefix: "done")
    }

    private func logCounters(prefix: String) {
        for (sink, counted) in zip(sinks, counterSummaries) where sinks.count > 1 || sink.reachesReceivers || sink.counters.failed > 0 {
            console.warn("sink \(counted.name) \(prefix): \(counted.summary)")
        }
    }
}

/// Log lines from delivery threads, handed to the console on the command's own thread (the
/// console is not shared across threads).
public final class SinkLogRelay: Sendable {
    private let lines = Mutex<[String]>([])
    private let waiting = Mutex<(@Sendable () -> Void)?>(nil)

    public init() {}

    public var log: @Sendable (String) -> Void {
        { [self] line in
            lines.withLock { $0.append(line) }
            waiting.withLock { $0 }?()
        }
    }

    /// Called after each new line (from a delivery thread): a live session, which may send nothing
    /// for minutes, drains at once instead of waiting for its next update.
    func whenLineArrives(_ notify: @escaping @Sendable () -> Void) {
        waiting.withLock { $0 = notify }
    }

    func drain(into console: any SessionConsole) {
        for line in lines.withLock({ lines in defer { lines = [] }; return lines }) { console.warn(line) }
    }
}
