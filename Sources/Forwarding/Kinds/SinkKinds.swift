import SinkVocabulary

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
        .bleHeartRate,
    ]

    public static func named(_ name: String) -> SinkKind? {
        all.first { $0.name == name }
    }

    /// Their descriptions, for readers of settings (the configuration file).
    public static let catalog = SinkCatalog(all.map(\.description))
}
