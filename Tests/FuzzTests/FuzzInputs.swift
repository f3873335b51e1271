import Foundation
import FuzzTargets

/// The committed fuzz inputs: `Fuzz/Corpus/<target>` (seeds and what libFuzzer kept, minimised)
/// and `Fuzz/Regressions/<target>` (every input that once found a defect).
enum FuzzInputs {
    static let fuzzDirectory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fuzz")

    static func files(_ kind: String, of target: String) -> [URL] {
        let folder = fuzzDirectory.appendingPathComponent(kind).appendingPathComponent(target)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { !$0.hasPrefix(".") }.sorted().map { folder.appendingPathComponent($0) }
    }

    static func folders(_ kind: String) -> [String] {
        let folder = fuzzDirectory.appendingPathComponent(kind)
        return ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).filter { !$0.hasPrefix(".") }.sorted()
    }

    static func bytes(_ file: URL) throws -> [UInt8] { [UInt8](try Data(contentsOf: file)) }
}
