/// Walks a TCX document: TrainingCenterDatabase / Activities / Activity / Lap / Track /
/// Trackpoint, and the Activity's Creator. Laps and Tracks only hold Trackpoints here: their
/// summaries (totals, averages, lap extensions) repeat what the points say, and Courses are routes,
/// not recordings; all of that is skipped.
struct TCXDecoder {
    var walker: XMLWalker
    var assembler: RecordingAssembler
    /// The activity asked for, from 1.
    private let wanted: Int
    private var activities: [TCXActivitySummary] = []
    private var wantedLine: Int?
    private var device: String?

    init(_ input: XMLByteStream, path: String, wanted: Int) {
        walker = XMLWalker(input, path: path)
        assembler = RecordingAssembler(point: "Trackpoint", path: path)
        self.wanted = wanted
    }

    mutating func read() throws(ImportError) -> TCXFile {
        guard let root = try walker.nextChild(inside: 0) else { throw walker.failure(line: 1, "no root element") } // the reader says so first
        guard root.name == TCXNames.tcx("TrainingCenterDatabase") else {
            throw walker.failure(line: root.line, "the root element is <\(root.name)>, not TrainingCenterDatabase of \(TCXNames.database)")
        }
        while let child = try walker.nextChild(inside: 1) {
            if child.name == TCXNames.tcx("Activities") { try readActivities() }
        }
        guard !activities.isEmpty else {
            throw walker.failure(line: root.line, "no Activity: nothing to replay (Courses, if any, are routes, not recordings)")
        }
        guard let wantedLine else { return TCXFile(activities: activities, recording: nil) }
        let recording = try assembler.recording(device: device, scope: "activity \(wanted)", line: wantedLine)
        return TCXFile(activities: activities, recording: recording)
    }

    private mutating func readActivities() throws(ImportError) {
        let depth = walker.depth
        while let child = try walker.nextChild(inside: depth) {
            if child.name == TCXNames.tcx("Activity") { try readActivity(child) }
        }
    }

    private mutating func readActivity(_ activity: XMLElement) throws(ImportError) {
        activities.append(TCXActivitySummary(sport: activity.attribute("Sport"), id: nil, points: 0))
        let isWanted = activities.count == wanted
        if isWanted { wantedLine = activity.line }
        let depth = walker.depth
        while let child = try walker.nextChild(inside: depth) {
            switch child.name {
            case TCXNames.tcx("Id"):
                activities[activities.count - 1].id = try walker.text().trimmingXMLWhitespace
            case TCXNames.tcx("Lap"):
                try readLap(isWanted: isWanted)
            case TCXNames.tcx("Creator") where isWanted:
                device = try readCreatorName()
            default:
                continue
            }
        }
    }

    private mutating func readLap(isWanted: Bool) throws(ImportError) {
        let lapDepth = walker.depth
        while let track = try walker.nextChild(inside: lapDepth) {
            guard track.name == TCXNames.tcx("Track") else { continue }
            let trackDepth = walker.depth
            while let point = try walker.nextChild(inside: trackDepth) {
                guard point.name == TCXNames.tcx("Trackpoint") else { continue }
                activities[activities.count - 1].points += 1
                if isWanted { try readTrackpoint(point) }
            }
        }
    }

    /// `Creator/Name`: the device (`Forerunner 410 Software Version 2.20`).
    private mutating func readCreatorName() throws(ImportError) -> String? {
        let depth = walker.depth
        var name: String?
        while let child = try walker.nextChild(inside: depth) {
            if child.name == TCXNames.tcx("Name") { name = try walker.text().trimmingXMLWhitespace }
        }
        return name
    }
}
