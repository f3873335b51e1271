import BlueZ
import Sensors
import Session

extension TraceRecorder {
    /// `--record FILE` and `record -o FILE`: a recorder per strap (`files(_:for:)`); a usage error
    /// when two straps' names would share a file.
    /// Each strap's file also holds the distance sensor beside it, if any.
    static func recorders(_ path: String, for straps: [(strap: SensorSelector, distance: SensorSelector?, heartRateFrom: HeartRateSource)],
                          spec: CommandSpec) throws(CLIError) -> [TraceRecorder] {
        let selectors = straps.map(\.strap)
        let files = files(path, for: selectors)
        if let clash = files.indices.first(where: { files[..<$0].contains(files[$0]) }) {
            let first = files.firstIndex(of: files[clash])!
            throw .usage("straps '\(selectors[first])' and '\(selectors[clash])' would both be recorded to \(files[clash])", spec)
        }
        return zip(straps, files).map { TraceRecorder(path: $1, selector: $0.strap, distance: $0.distance, heartRateFrom: $0.heartRateFrom) }
    }
}
