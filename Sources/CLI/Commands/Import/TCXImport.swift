import Sensors
import Trace

/// `import tcx`: a Garmin Training Center file. Of several activities `--activity N` picks one
/// (the first by default), and all are listed on stderr so the person can choose.
enum TCXImport {
    static func recording(_ path: String, arguments: ParsedArguments, spec: CommandSpec, console: Console) throws(CLIError) -> WorkoutRecording {
        let wanted = try activityNumber(arguments, spec: spec)
        let file = try ImportCommand.readXML(path) { input throws(ImportError) in try TCXFile.read(input, path: path, activity: wanted) }
        if file.activities.count > 1 || file.recording == nil {
            let count = file.activities.count == 1 ? "1 activity" : "\(file.activities.count) activities"
            console.warn("\(path) holds \(count) (--activity N picks one):")
            for (index, activity) in file.activities.enumerated() {
                let points = activity.points == 1 ? "1 point" : "\(activity.points) points"
                console.warn("  \(index + 1): \(activity.sport ?? "no sport"), \(activity.id ?? "no Id"), \(points)")
            }
        }
        guard let recording = file.recording else {
            throw .usage("--activity \(wanted): \(path) has no activity \(wanted)", spec)
        }
        return recording
    }

    private static func activityNumber(_ arguments: ParsedArguments, spec: CommandSpec) throws(CLIError) -> Int {
        guard let text = arguments.value("--activity") else { return 1 }
        guard let number = Int(text), number >= 1 else { throw .usage("--activity '\(text)' is not a number from 1", spec) }
        return number
    }
}
