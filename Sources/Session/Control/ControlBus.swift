import DBus
import Foundation

/// `--control-bus system|session|none` for run and paced replay: where `io.hrbridge.Bridge1` is
/// served. The session bus by default (a person's own run); the systemd unit passes `system`.
struct ControlBusOption: Sendable {
    var bus: BusConnection.Bus?
    /// Given on the command line: then a bus that cannot be reached is an error, not a notice.
    var explicit: Bool

    static let specOption = CommandSpec.Option(
        name: "--control-bus", valueName: "BUS",
        help: "serve 'hrbridge ctl' on system, session (default) or none"
    )

    static func parse(_ arguments: ParsedArguments, spec: CommandSpec) throws(CLIError) -> ControlBusOption {
        switch arguments.value("--control-bus") {
        case nil: ControlBusOption(bus: .session, explicit: false)
        case "session": ControlBusOption(bus: .session, explicit: true)
        case "system": ControlBusOption(bus: .system, explicit: true)
        case "none": ControlBusOption(bus: nil, explicit: true)
        case let other?: throw .usage("--control-bus '\(other)': expected system, session or none", spec)
        }
    }

    /// What `ctl` needs to reach this bus.
    var ctlFlag: String {
        if case .system = bus { return " --system" }
        return ""
    }

    /// Whether a session bus is announced: the variable, or systemd's per-user socket.
    static func sessionBusConfigured(_ environment: [String: String]) -> Bool {
        if let address = environment["DBUS_SESSION_BUS_ADDRESS"], !address.isEmpty { return true }
        guard let runtime = environment["XDG_RUNTIME_DIR"], !runtime.isEmpty else { return false }
        return FileManager.default.fileExists(atPath: runtime + "/bus")
    }
}
