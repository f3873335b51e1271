/// Paths of the helper programs beside this file (they are not compiled into the target).
public enum Peers {
    public static func path(_ name: String) -> String {
        let here = #filePath
        let folder = here[..<here.lastIndex(of: "/")!]
        return "\(folder)/Peers/\(name)"
    }

    /// The interpreter with Debian's python3-dbus and python3-dbusmock (not whatever is first on PATH).
    public static let python = "/usr/bin/python3"
}
