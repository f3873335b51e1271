import Foundation

/// The Python servers, validators and checkers in `Scripts/`, copied beside the test bundle.
public enum TestScripts {
    public static func path(_ name: String) -> String {
        Bundle.module.url(forResource: "Scripts/\(name)", withExtension: nil)!.path
    }

    /// PyPI's openapi-core in the virtual environment `scripts/install-deps test` makes.
    public static let openAPIPython = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent(".build/test-python/bin/python").path
}
