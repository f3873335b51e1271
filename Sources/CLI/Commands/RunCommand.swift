import BlueZ

/// `hrbridge run` and `hrbridge record`: live straps through the pipeline, or to a trace.
enum RunCommand {
    static let spec = CommandSpec(
        name: "run",
        summary: "Stream live heart-rate straps through the pipeline (stdout NDJSON).",
        options: [
            .init(name: "--device", valueName: "ADDRESS|NAME", help: "strap to use (repeat for several; default: the first found)", repeatable: true),
            .init(name: "--record", valueName: "FILE", help: "also write the raw trace (one strap)"),
        ],
        details: """
        Output: one JSON object per sample, as 'hrbridge replay' prints. Progress, reconnects
        and their reasons go to stderr. Never gives up on a strap: links that drop, adapters
        that go off or away and bluetoothd restarts are waited out. Ctrl-C or SIGTERM stops
        notifications and disconnects (within 2 s).

        Examples:
          hrbridge run
          hrbridge run --device F1:5A:17:00:00:01 --record today.trace
          hrbridge run --device "Polar H10 1234ABCD" --device "HRM-Pro"
        """
    )

    static let recordSpec = CommandSpec(
        name: "record",
        summary: "Record a live strap's raw notifications to a trace file.",
        options: [
            .init(name: "--device", valueName: "ADDRESS|NAME", help: "strap to record (default: the first found)"),
            .init(name: "-o", valueName: "FILE", help: "trace file to write (required)"),
        ],
        details: """
        Every notification and connection event is written as it arrives (one write per line),
        so 'hrbridge replay FILE' later reproduces the session exactly.

        Example:
          hrbridge record --device F1:5A:17:00:00:01 -o today.trace
        """
    )

    static func run(_ arguments: ParsedArguments, console: Console) throws(CLIError) {
        let selectors = arguments.allValues("--device").map(StrapSelector.init)
        let record = arguments.value("--record")
        if record != nil, selectors.count > 1 { throw .usage("--record writes one strap's trace; give one --device", spec) }
        try StrapRun(selectors: selectors.isEmpty ? [.anyHeartRateStrap] : selectors, recordPath: record, feedsPipeline: true)
            .run(console: console)
    }

    static func record(_ arguments: ParsedArguments, console: Console) throws(CLIError) {
        guard let output = arguments.value("-o") else { throw .usage("missing -o FILE", recordSpec) }
        let selector = arguments.value("--device").map(StrapSelector.init) ?? .anyHeartRateStrap
        try StrapRun(selectors: [selector], recordPath: output, feedsPipeline: false).run(console: console)
    }
}
