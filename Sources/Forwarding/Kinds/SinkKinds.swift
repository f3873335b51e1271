/// Every sink kind hrbridge has, in the order `--help` lists them. A new kind: its folder beside
/// these, and one line here.
public enum SinkKinds {
    public static let all: [SinkKind] = [
        .standardOutput,
        .file,
        .lifecycle,
        .apns,
        .apnsBackground,
        .airship,
        .fcm,
        .mqtt,
    ]

    public static func named(_ name: String) -> SinkKind? {
        all.first { $0.name == name }
    }

    /// Each shared settings object and the options in it, from every kind that uses it, in order.
    public static var sharedObjects: [(name: String, options: [SinkOption], kinds: [SinkKind])] {
        var objects: [(name: String, options: [SinkOption], kinds: [SinkKind])] = []
        for kind in all {
            guard let name = kind.sharedObject else { continue }
            let shared = kind.options.filter { $0.sharedObject == name }
            if let index = objects.firstIndex(where: { $0.name == name }) {
                objects[index].options += shared.filter { option in !objects[index].options.contains { $0.key == option.key } }
                objects[index].kinds.append(kind)
            } else {
                objects.append((name, shared, [kind]))
            }
        }
        return objects
    }
}
