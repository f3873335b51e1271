import Sensors

/// One trkpt: its position (lat, lon), time, and from Garmin's TrackPointExtension (v1 or v2) the
/// heart rate, cadence and (v2) speed. Elevation and the rest are skipped.
extension GPXDecoder {
    mutating func readPoint(_ point: XMLElement) throws(ImportError) {
        var skipped: [String] = []
        if let position = try position(of: point) {
            odometer.move(to: position)
        } else {
            skipped.append("trkpt without a position (the distance runs straight past it)")
        }
        var time: Timestamp?
        var fields = ExtensionFields()
        let depth = walker.depth
        while let child = try walker.nextChild(inside: depth) {
            switch child.name {
            case GPXNames.gpx("time"): time = try walker.dateTime(child)
            case GPXNames.gpx("extensions"): try readExtensions(into: &fields, skipped: &skipped)
            default: continue
            }
        }
        guard let time else {
            assembler.tolerate("trkpt without a time (left out; its position still counts toward the distance)")
            return
        }
        if segmentGap {
            assembler.pause(until: time)
            segmentGap = false
        }
        let sample = WorkoutRecording.Sample(time: time, heartRate: fields.heartRate, distance: odometer.total, speed: fields.speed,
                                             cadence: fields.cadence)
        try assembler.append(sample, skipped: skipped, line: point.line)
    }

    private struct ExtensionFields {
        var heartRate: Int?
        var cadence: Int?
        var speed: Double?
    }

    /// `lat` and `lon`; nil when the point lacks either (GPX requires both, but a point can still
    /// give its time and heart rate).
    private mutating func position(of point: XMLElement) throws(ImportError) -> GreatCircle.Coordinate? {
        guard let latitude = point.attribute("lat"), let longitude = point.attribute("lon") else { return nil }
        func degrees(_ text: String, _ name: String, within limit: Double) throws(ImportError) -> Double {
            guard let value = XSDValue.number(text) else { throw walker.failure(line: point.line, "trkpt \(name) '\(text)' is not a number") }
            guard abs(value) <= limit else { throw walker.failure(line: point.line, "trkpt \(name) \(text) is outside -\(Int(limit))…\(Int(limit))") }
            return value
        }
        return GreatCircle.Coordinate(latitude: try degrees(latitude, "lat", within: 90), longitude: try degrees(longitude, "lon", within: 180))
    }

    /// A trkpt's extensions: TrackPointExtension's hr, cad and speed are read; anything else (atemp,
    /// power, another vendor's elements) is skipped and counted.
    private mutating func readExtensions(into fields: inout ExtensionFields, skipped: inout [String]) throws(ImportError) {
        let depth = walker.depth
        while let child = try walker.nextChild(inside: depth) {
            let version = child.name.namespace
            guard child.name.local == "TrackPointExtension",
                  version == GPXNames.trackPointExtensionV1 || version == GPXNames.trackPointExtensionV2
            else {
                skipped.append(assembler.extensionNotRead(child.name))
                continue
            }
            let fieldDepth = walker.depth
            while let field = try walker.nextChild(inside: fieldDepth) {
                switch field.name {
                case XMLName(version, "hr"): fields.heartRate = Int(try walker.number(field, what: "hr", in: 0...65535).rounded())
                case XMLName(version, "cad"): fields.cadence = Int(try walker.number(field, what: "cad", in: 0...255).rounded())
                case XMLName(GPXNames.trackPointExtensionV2, "speed"): fields.speed = try walker.number(field, what: "speed", in: .atLeast(0))
                default: skipped.append(assembler.extensionNotRead(field.name))
                }
            }
        }
    }
}
