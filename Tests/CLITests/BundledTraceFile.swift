import Foundation
@testable import CLI

/// The bundled trace (carried in the binary as text) written once to a file, for tests that hand
/// a command a path. Named as the trace is, so tables show the same row name.
enum BundledTraceFile {
    static let path: String = {
        let directory = NSTemporaryDirectory() + "hrbridge-tests-bundled-\(getpid())"
        try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let path = directory + "/" + BundledTrace.name
        FileManager.default.createFile(atPath: path, contents: Data(BundledTrace.text.utf8))
        return path
    }()
}
