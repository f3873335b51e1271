import FoundationEssentials
import Sensors
import Trace
import Platform

/// `import fit`: a watch's or bike computer's FIT activity file, at its own times.
enum FITImport {
    static func recording(_ path: String) throws(CLIError) -> WorkoutRecording {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw .noInput("\(path): cannot read file")
        }
        do {
            return try WorkoutRecording(fit: [UInt8](data), path: path, source: FilePath.lastComponent(of: path))
        } catch {
            throw .dataError("\(error)")
        }
    }
}
