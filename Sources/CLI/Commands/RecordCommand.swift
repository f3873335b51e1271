import Sensors
import LiveLinks

/// `hrbridge record`: a recorder only. Each strap's raw events to a trace file, nothing else.
enum RecordCommand {
    static let spec = CommandSpec(
        name: "record",
        summary: "Record live straps' raw notifications to trace files.",
        options: [
            .init(name: "--device", valueName: "ADDRESS|NAME", help: "strap to record (repeat for several; default: the first found)",
                  repeatable: true),
            DeviceOptions.distanceDeviceOption,
            .init(name: "-o", valueName: "FILE", help: "trace file to write (required)"),
        ],
        details: """
        Every notification and connection event is written as it arrives (one write per line),
        so 'hrbridge replay FILE' later reproduces the session exactly. SIGINT/SIGTERM stop
        notifications and disconnect (within 2 s), then exit 0. 'hrbridge run --record FILE'
        records the same while it streams. With several straps each gets its own file, the strap
        named before the extension: -o today.trace writes today.F1-5A-17-00-00-01.trace and
        today.HRM-Pro.trace. With --distance-device, the foot pod's or bike sensor's events go
        into the strap's file too (a version-2 trace, its lines tagged 'distance').

        Examples:
          hrbridge record --device F1:5A:17:00:00:01 -o today.trace
          hrbridge record --device F1:5A:17:00:00:01 --device HRM-Pro -o today.trace
          hrbridge record --device F1:5A:17:00:00:01 --distance-device "Stryd 1234" -o run.trace
        """
    )

    static func run(_ arguments: ParsedArguments, console: Console) throws(CLIError) {
        guard let output = arguments.value("-o") else { throw .usage("missing -o FILE", spec) }
        let selectors = try DeviceOptions.selectors(arguments, spec: spec)
        let distance = try DeviceOptions.distanceSelector(arguments, straps: selectors, spec: spec)
        try RecordFiles.check(output, for: selectors, spec: spec)
        let recorders = TraceRecorder.recorders(output, for: selectors.map { ($0, distance, .strap) })
        try CLIError.catching(RecordedLinks.run(zip(selectors, recorders).map {
            RecordedLinks.Workout(strap: $0, distance: distance, recorder: $1)
        }, console: console))
    }
}
