import Sensors
import Trace

/// `import gpx`: a GPX 1.1 track with Garmin's TrackPointExtension. Several tracks are joined like
/// segments, which stderr says.
enum GPXImport {
    static func recording(_ path: String, console: Console) throws(CLIError) -> WorkoutRecording {
        let file = try ImportCommand.readXML(path) { input throws(ImportError) in try GPXFile.read(input, path: path) }
        if file.tracks > 1 {
            console.warn("\(path) holds \(file.tracks) tracks: joined one after the other like segments, the time between them a pause")
        }
        return file.recording
    }
}
