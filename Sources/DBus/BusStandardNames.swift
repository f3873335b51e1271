/// The bus daemon's name, the standard interfaces and error names (D-Bus specification): one place
/// for the strings, for our server side, our signal tracking and clients such as the BlueZ mirror.
public enum BusInterfaceName {
    /// The bus daemon: its bus name and its interface.
    public static let daemon = "org.freedesktop.DBus"
    public static let introspectable = "org.freedesktop.DBus.Introspectable"
    public static let properties = "org.freedesktop.DBus.Properties"
    public static let peer = "org.freedesktop.DBus.Peer"
    public static let objectManager = "org.freedesktop.DBus.ObjectManager"
}

/// The standard error names (a server answers with them; the bus daemon and libdbus too).
public enum BusErrorName {
    public static let unknownMethod = "org.freedesktop.DBus.Error.UnknownMethod"
    public static let unknownInterface = "org.freedesktop.DBus.Error.UnknownInterface"
    public static let unknownProperty = "org.freedesktop.DBus.Error.UnknownProperty"
    public static let propertyReadOnly = "org.freedesktop.DBus.Error.PropertyReadOnly"
    public static let invalidArgs = "org.freedesktop.DBus.Error.InvalidArgs"
    public static let failed = "org.freedesktop.DBus.Error.Failed"
    public static let serviceUnknown = "org.freedesktop.DBus.Error.ServiceUnknown"
    public static let nameHasNoOwner = "org.freedesktop.DBus.Error.NameHasNoOwner"
    public static let accessDenied = "org.freedesktop.DBus.Error.AccessDenied"
}
