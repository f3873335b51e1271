import Foundation

/// ../shared/recordings beside the project (CI lays shared/ next to the clone): real recordings and,
/// in originals/, the files their devices wrote.
public enum SharedRecordings {
    public static let directory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("shared/recordings")

    public static func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

    public static func original(_ name: String) -> String { directory.appendingPathComponent("originals/\(name)").path }
}
