import BlueZ
import Dispatch

/// `hrbridge record`: a recorder only. One strap's raw events to a trace file, nothing else.
enum RecordCommand {
    static let spec = CommandSpec(
        name: "record",
        summary: "Record a live strap's raw notifications to a trace file.",
        options: [
            .init(name: "--device", valueName: "ADDRESS|NAME", help: "strap to record (default: the first found)"),
            .init(name: "-o", valueName: "FILE", help: "trace file to write (required)"),
        ],
        details: """
        Every notification and connection event is written as it arrives (one write per line),
        so 'hrbridge replay FILE' later reproduces the session exactly. SIGINT/SIGTERM stop
        notifications and disconnect (within 2 s), then exit 0. 'hrbridge run --record FILE'
        records the same while it streams.

        Example:
          hrbridge record --device F1:5A:17:00:00:01 -o today.trace
        """
    )

    static func run(_ arguments: ParsedArguments, console: Console) throws(CLIError) {
        guard let output = arguments.value("-o") else { throw .usage("missing -o FILE", spec) }
        let selector = arguments.value("--device").map(BlueZ.StrapSelector.init) ?? .anyHeartRateStrap
        let recorder = TraceRecorder(path: output, selector: selector)
        let links = StrapLinks(console: console)
        let ended = DispatchSemaphore(value: 0)
        let watcher = SignalWatcher(queue: DispatchQueue(label: "hrbridge.signals")) { signal in
            console.warn("\(SignalWatcher.name(signal)): stopping notifications and disconnecting")
            links.stopAll()
        }
        defer { watcher.cancel() }
        links.start([StrapLinks.Strap(selector: selector, consume: recorder.append, ended: { ended.signal() })])
        ended.wait()
        links.waitForAll()
        if let failure = links.failure { throw failure }
    }
}
