/// One strap and the activity it feeds.
public struct StrapConfiguration: Sendable, Equatable {
    public var strap: StrapSelector
    /// The attributes' `workoutName` (LiveState's `ActivitySettings.workoutName`).
    public var workoutName: String
    /// The content state's `intervalLabel` at start; `hrbridge ctl label` changes it later.
    public var intervalLabel: String?
    /// Prefix of this strap's activity ids (LiveState's `ActivitySettings.activityIDPrefix`).
    public var activityIDPrefix: String?
    /// The file's cadence with this strap's own settings over it.
    public var cadence: CadenceSettings
    public var sinks: [SinkConfiguration]
}

/// How a strap is recognised: its Bluetooth address (exact) or its advertised name.
public enum StrapSelector: Sendable, Hashable, CustomStringConvertible {
    /// `AA:BB:CC:DD:EE:FF`, upper case.
    case address(String)
    case name(String)

    public var description: String {
        switch self {
        case let .address(address): "address \(address)"
        case let .name(name): "name \(JSONWriter.quoted(name))"
        }
    }
}
