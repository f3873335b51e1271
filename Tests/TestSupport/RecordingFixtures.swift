import Foundation

/// Tests/Fixtures/recordings: real recordings and, in originals/, the files their devices wrote
/// (their sources and licences are in the README beside them).
public enum RecordingFixtures {
    public static let directory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/recordings")

    public static func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

    public static func original(_ name: String) -> String { directory.appendingPathComponent("originals/\(name)").path }
}
