import Sensors

/// One Trackpoint: its Time, HeartRateBpm, DistanceMeters (the device's running total), Cadence,
/// and from ActivityExtension v2's TPX the Speed and RunCadence. Position and AltitudeMeters are
/// skipped: the distance is the device's own, and no strap or pod sends either.
extension TCXDecoder {
    mutating func readTrackpoint(_ point: XMLElement) throws(ImportError) {
        var time: Timestamp?
        var heartRate: Int?, distance: Double?, speed: Double?, cadence: Int?, runCadence: Int?
        var skipped: [String] = []
        let depth = walker.depth
        while let child = try walker.nextChild(inside: depth) {
            switch child.name {
            case TCXNames.tcx("Time"):
                time = try walker.dateTime(child)
            case TCXNames.tcx("HeartRateBpm"):
                heartRate = try readHeartRate()
            case TCXNames.tcx("DistanceMeters"):
                distance = try walker.number(child, in: .atLeast(0))
            case TCXNames.tcx("Cadence"):
                cadence = Int(try walker.number(child, in: 0...255).rounded())
            case TCXNames.tcx("Extensions"):
                try readExtensions(speed: &speed, runCadence: &runCadence, skipped: &skipped)
            default:
                continue
            }
        }
        guard let time else {
            throw walker.failure(line: point.line, "Trackpoint without a Time: TCX requires one, and a point cannot be placed without it")
        }
        // Garmin's RunCadence counts one foot's strides a minute; a foot pod's cadence, and the
        // recording's, count steps, twice as many. Cadence (a bike's crank) wins when both are given.
        let steps = runCadence.map { 2 * $0 }
        let sample = WorkoutRecording.Sample(time: time, heartRate: heartRate, distance: distance, speed: speed, cadence: cadence ?? steps)
        try assembler.append(sample, skipped: skipped, line: point.line)
    }

    /// `HeartRateBpm/Value`.
    private mutating func readHeartRate() throws(ImportError) -> Int? {
        let depth = walker.depth
        var rate: Int?
        while let child = try walker.nextChild(inside: depth) {
            guard child.name == TCXNames.tcx("Value") else { continue }
            rate = Int(try walker.number(child, what: "HeartRateBpm Value", in: 0...65535).rounded())
        }
        return rate
    }

    /// A Trackpoint's Extensions: TPX's Speed (m/s) and RunCadence are read; anything else (Watts,
    /// another vendor's elements) is skipped and counted.
    private mutating func readExtensions(speed: inout Double?, runCadence: inout Int?, skipped: inout [String]) throws(ImportError) {
        let depth = walker.depth
        while let child = try walker.nextChild(inside: depth) {
            guard child.name == TCXNames.extensionV2("TPX") else {
                skipped.append(assembler.extensionNotRead(child.name))
                continue
            }
            let fieldDepth = walker.depth
            while let field = try walker.nextChild(inside: fieldDepth) {
                switch field.name {
                case TCXNames.extensionV2("Speed"): speed = try walker.number(field, what: "TPX Speed", in: .atLeast(0))
                case TCXNames.extensionV2("RunCadence"): runCadence = Int(try walker.number(field, what: "TPX RunCadence", in: 0...255).rounded())
                default: skipped.append(assembler.extensionNotRead(field.name))
                }
            }
        }
    }
}
