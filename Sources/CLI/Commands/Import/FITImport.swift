import Foundation
import Sensors
import Trace

/// `import fit`: a watch's or bike computer's FIT activity file, at its own times unless `--start` moves them.
enum FITImport {
    static func recording(_ path: String, start: Timestamp?) throws(CLIError) -> WorkoutRecording {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw .noInput("\(path): cannot read file")
        }
        let recording: WorkoutRecording
        do {
            recording = try WorkoutRecording(fit: [UInt8](data), path: path, source: (path as NSString).lastPathComponent)
        } catch {
            throw .dataError("\(error)")
        }
        guard let start else { return recording }
        return recording.moved(by: start.microsecondsSinceUnixEpoch - recording.start.microsecondsSinceUnixEpoch)
    }
}
