import Sensors
import LiveLinks

/// `--record FILE` and `record -o FILE`: one file per strap (`TraceRecorder.files(_:for:)`), each
/// also holding the distance sensor beside its strap, if any.
enum RecordFiles {
    /// A usage error when two straps' names would share a file.
    static func check(_ path: String, for selectors: [SensorSelector], spec: CommandSpec) throws(CLIError) {
        let files = TraceRecorder.files(path, for: selectors)
        if let clash = files.indices.first(where: { files[..<$0].contains(files[$0]) }) {
            let first = files.firstIndex(of: files[clash])!
            throw .usage("straps '\(selectors[first])' and '\(selectors[clash])' would both be recorded to \(files[clash])", spec)
        }
    }
}
