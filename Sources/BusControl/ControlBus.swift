import DBus
import FoundationEssentials

/// Where `io.hrbridge.Bridge1` is served (`--control-bus system|session|none` for run and paced
/// replay). The session bus by default (a person's own run); the systemd unit passes `system`.
public struct ControlBus: Sendable {
    /// nil: no controls.
    var bus: BusConnection.Bus?
    /// Chosen on purpose (not the default): then a bus that cannot be reached is an error, not a notice.
    var explicit: Bool

    public init(bus: BusConnection.Bus?, explicit: Bool) {
        self.bus = bus
        self.explicit = explicit
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
