/// Writes TCX files for property tests (never for the product): the given activities with laps,
/// tracks and points, in randomly varied but valid XML: the schema's namespace as the default or
/// under a prefix that may change from lap to lap, ActivityExtension v2 under any prefix or as a
/// default namespace on TPX itself, time-zone offsets, an unknown vendor's extension, and the
/// spelling variations of `RandomXMLStyle`.
public enum TCXWriter {
    public static let database = "http://www.garmin.com/xmlschemas/TrainingCenterDatabase/v2"
    public static let activityExtension = "http://www.garmin.com/xmlschemas/ActivityExtension/v2"

    public struct Activity: Sendable {
        public var sport: String
        /// Laps of tracks of points; every point has a time.
        public var laps: [[[WrittenPoint]]]
        public var creator: String?

        public init(sport: String, laps: [[[WrittenPoint]]], creator: String?) {
            self.sport = sport
            self.laps = laps
            self.creator = creator
        }
    }

    public static func document(_ activities: [Activity], style: inout RandomXMLStyle) -> String {
        let rootPrefix = style.pick(["", "tcx:", "t:"])
        var text = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\(style.gap())<!-- written by a test -->\(style.gap())"
        text += "<\(rootPrefix)TrainingCenterDatabase \(RandomXMLStyle.declaration(rootPrefix, database))"
            + " xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\">\(style.gap())"
        text += "<\(rootPrefix)Activities>"
        for activity in activities {
            text += style.gap() + self.activity(activity, prefix: rootPrefix, style: &style)
        }
        text += "\(style.gap())</\(rootPrefix)Activities>\(style.gap())</\(rootPrefix)TrainingCenterDatabase>\n"
        return text
    }

    private static func activity(_ activity: Activity, prefix p: String, style: inout RandomXMLStyle) -> String {
        let firstTime = activity.laps.lazy.flatMap { $0.flatMap { $0 } }.first?.time ?? 0
        var text = "<\(p)Activity Sport=\"\(activity.sport)\">\(style.gap())"
        text += style.element("\(p)Id", XSDTimeText.format(microseconds: firstTime, offsetMinutes: 0))
        for lap in activity.laps {
            // A lap may bind the schema's namespace to a prefix of its own.
            let lapPrefix = style.pick([p, p, "lap:"])
            let redeclared = lapPrefix == p ? "" : " \(RandomXMLStyle.declaration(lapPrefix, database))"
            text += "\(style.gap())<\(lapPrefix)Lap StartTime=\"\(XSDTimeText.format(microseconds: lap.first?.first?.time ?? firstTime, offsetMinutes: 0))\"\(redeclared)>"
            text += style.gap() + style.element("\(lapPrefix)TotalTimeSeconds", "60.0")
            for track in lap {
                text += "\(style.gap())<\(lapPrefix)Track>"
                for point in track { text += style.gap() + trackpoint(point, prefix: lapPrefix, style: &style) }
                text += "\(style.gap())</\(lapPrefix)Track>"
            }
            text += "\(style.gap())</\(lapPrefix)Lap>"
        }
        if let creator = activity.creator {
            text += "\(style.gap())<\(p)Creator xsi:type=\"Device_t\">\(style.element("\(p)Name", creator))\(style.element("\(p)UnitId", "3854007508"))</\(p)Creator>"
        }
        return text + "\(style.gap())</\(p)Activity>"
    }

    private static func trackpoint(_ point: WrittenPoint, prefix p: String, style: inout RandomXMLStyle) -> String {
        let offset: Int? = style.pick([nil, 0, 120, -480, -420, 330, 765]) // nil: no zone, read as UTC
        var text = "<\(p)Trackpoint>\(style.gap())" + style.element("\(p)Time", XSDTimeText.format(microseconds: point.time!, offsetMinutes: offset))
        if style.random.chance(0.5) {
            text += "<\(p)Position>\(style.element("\(p)LatitudeDegrees", "35.95"))\(style.element("\(p)LongitudeDegrees", "-79.09"))</\(p)Position>"
        }
        if style.random.chance(0.3) { text += style.gap() + style.element("\(p)AltitudeMeters", "178.9") }
        if let distance = point.distance { text += style.gap() + style.element("\(p)DistanceMeters", "\(distance)") }
        if let heartRate = point.heartRate {
            text += "\(style.gap())<\(p)HeartRateBpm>\(style.gap())\(style.element("\(p)Value", "\(heartRate)"))\(style.gap())</\(p)HeartRateBpm>"
        }
        if let cadence = point.cadence { text += style.gap() + style.element("\(p)Cadence", "\(cadence)") }
        let unknown = style.random.chance(0.2)
        if point.speed != nil || point.runCadence != nil || unknown {
            text += "\(style.gap())<\(p)Extensions>"
            if unknown { text += "<v:Stress xmlns:v=\"urn:example:vendor\"><v:Level>3</v:Level></v:Stress>" }
            if point.speed != nil || point.runCadence != nil {
                let x = style.pick(["ns3:", "ext:", "ax:", ""])
                text += "<\(x)TPX \(RandomXMLStyle.declaration(x, activityExtension))\(style.random.chance(0.5) ? " CadenceSensor=\"Footpod\"" : "")>"
                if let speed = point.speed { text += style.gap() + style.element("\(x)Speed", "\(speed)") }
                if let runCadence = point.runCadence { text += style.gap() + style.element("\(x)RunCadence", "\(runCadence)") }
                if style.random.chance(0.3) { text += style.element("\(x)Watts", "250") }
                text += "\(style.gap())</\(x)TPX>"
            }
            text += "\(style.gap())</\(p)Extensions>"
        }
        return text + "\(style.gap())</\(p)Trackpoint>"
    }
}
