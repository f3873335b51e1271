@testable import CLI

/// The bundled trace's file in the repository (the build turns it into code), for tests that hand
/// a command a path. Named as the trace is, so tables show the same row name.
enum BundledTraceFile {
    static let path: String = {
        let repository = String(#filePath.dropLast("Tests/CLITests/BundledTraceFile.swift".count))
        return repository + "Sources/CLI/Data/" + BundledTrace.name
    }()
}
