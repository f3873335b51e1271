import BusControl

/// `--control-bus system|session|none` for run and paced replay: where `io.hrbridge.Bridge1` is served.
enum ControlBusOption {
    static let specOption = CommandSpec.Option(
        name: "--control-bus", valueName: "BUS",
        help: "serve 'hrbridge ctl' on system, session (default) or none"
    )

    static func parse(_ arguments: ParsedArguments, spec: CommandSpec) throws(CLIError) -> ControlBus {
        switch arguments.value("--control-bus") {
        case nil: ControlBus(bus: .session, explicit: false)
        case "session": ControlBus(bus: .session, explicit: true)
        case "system": ControlBus(bus: .system, explicit: true)
        case "none": ControlBus(bus: nil, explicit: true)
        case let other?: throw .usage("--control-bus '\(other)': expected system, session or none", spec)
        }
    }
}
