import DBus
import LiveState

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

    /// The method that carries `action`, and its arguments before the strap.
    public static func call(for action: ControlAction) -> (method: String, arguments: [String]) {
        switch action {
        case .pause: ("Pause", [])
        case .resume: ("Resume", [])
        case let .label(text): ("SetLabel", [text])
        case .end: ("End", [])
        }
    }

    /// The action a call of `method` carries (`label`: SetLabel's argument), checked as every
    /// surface checks it; nil for a method that is no action (Status, or one we do not have).
    static func action(method: String, label: String?) -> Result<ControlAction, ControlAction.Refusal>? {
        switch method {
        case "Pause": .success(.pause)
        case "Resume": .success(.resume)
        case "SetLabel": ControlAction.parse(action: "label", text: label)
        case "End": .success(.end)
        default: nil
        }
    }

    static let description = BusInterfaceDescription(
        name: name,
        methods: [
            .init("Pause", inputs: [.init("strap", "s")]),
            .init("Resume", inputs: [.init("strap", "s")]),
            .init("SetLabel", inputs: [.init("label", "s"), .init("strap", "s")]),
            .init("End", inputs: [.init("strap", "s")]),
            .init("Status", inputs: [.init("strap", "s")], outputs: [.init("status", "s")]),
            // One a{sv} per sensor (SensorStatus+Bus): what `ctl status --watch` draws.
            .init("Sensors", inputs: [.init("strap", "s")], outputs: [.init("sensors", "aa{sv}")]),
        ],
        properties: [.init("Straps", "as"), .init("Status", "s")]
    )
}
