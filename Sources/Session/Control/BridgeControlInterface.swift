import DBus

/// The names of our own D-Bus interface (docs/commands.md, `hrbridge ctl`;
/// udev/io.hrbridge.Bridge1.conf reserves the name on the system bus). Every method takes an optional last `strap` argument: "" or absent
/// means every strap of this run.
public enum BridgeControlInterface {
    public static let busName = "io.hrbridge.Bridge1"
    public static let path = "/io/hrbridge/Bridge1"
    public static let name = "io.hrbridge.Bridge1"

    /// Error names a control call can fail with.
    public enum ErrorName {
        public static let unknownStrap = "io.hrbridge.Bridge1.Error.UnknownStrap"
        public static let refused = "io.hrbridge.Bridge1.Error.Refused"
        static let notRunning = "io.hrbridge.Bridge1.Error.NotRunning"
    }

    static let description = BusInterfaceDescription(
        name: name,
        methods: [
            .init("Pause", inputs: [.init("strap", "s")]),
            .init("Resume", inputs: [.init("strap", "s")]),
            .init("SetLabel", inputs: [.init("label", "s"), .init("strap", "s")]),
            .init("End", inputs: [.init("strap", "s")]),
            .init("Status", inputs: [.init("strap", "s")], outputs: [.init("status", "s")]),
        ],
        properties: [.init("Straps", "as"), .init("Status", "s")]
    )
}
