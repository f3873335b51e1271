import BlueZ
import Dispatch
import Session

/// `hrbridge record`: a recorder only. Each strap's raw events to a trace file, nothing else.
enum RecordCommand {
    static let spec = CommandSpec(
        name: "record",
        summary: "Record live straps' raw notifications to trace files.",
        options: [
            .init(name: "--device", valueName: "ADDRESS|NAME", help: "strap to record (repeat for several; default: the first found)",
                  repeatable: true),
            .init(name: "-o", valueName: "FILE", help: "trace file to write (required)"),
        ],
        details: """
        Every notification and connection event is written as it arrives (one write per line),
        so 'hrbridge replay FILE' later reproduces the session exactly. SIGINT/SIGTERM stop
        notifications and disconnect (within 2 s), then exit 0. 'hrbridge run --record FILE'
        records the same while it streams. With several straps each gets its own file, the strap
        named before the extension: -o today.trace writes today.F1-5A-17-00-00-01.trace and
        today.HRM-Pro.trace.

        Examples:
          hrbridge record --device F1:5A:17:00:00:01 -o today.trace
          hrbridge record --device F1:5A:17:00:00:01 --device HRM-Pro -o today.trace
        """
    )

    static func run(_ arguments: ParsedArguments, console: Console) throws(CLIError) {
        guard let output = arguments.value("-o") else { throw .usage("missing -o FILE", spec) }
        let selectors = try DeviceOptions.selectors(arguments, spec: spec)
        let recorders = try TraceRecorder.recorders(output, for: selectors, spec: spec)
        let links = StrapLinks(console: console)
        let ended = DispatchGroup()
        let watcher = SignalWatcher(queue: DispatchQueue(label: "hrbridge.signals")) { signal in
            console.warn("\(SignalWatcher.name(signal)): stopping notifications and disconnecting")
            links.stopAll()
        }
        defer { watcher.cancel() }
        links.start(zip(selectors, recorders).map { selector, recorder in
            ended.enter()
            return StrapLinks.Strap(selector: selector, consume: recorder.append, ended: { ended.leave() })
        })
        ended.wait()
        links.waitForAll()
        if let failure = links.failure { throw CLIError(failure) }
    }
}
