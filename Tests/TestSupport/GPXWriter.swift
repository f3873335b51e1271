/// Writes GPX 1.1 files for property tests (never for the product): tracks of segments of points in
/// randomly varied but valid XML: GPX as the default namespace or under a prefix, Garmin's
/// TrackPointExtension v1 or v2 under any prefix or as a default namespace on the extension itself,
/// time-zone offsets, points without a time or a position, waypoints and routes with times (not
/// a recording), extensions not read, and the spelling variations of `RandomXMLStyle`.
public enum GPXWriter {
    public static let gpx = "http://www.topografix.com/GPX/1/1"
    public static let trackPointExtensionV1 = "http://www.garmin.com/xmlschemas/TrackPointExtension/v1"
    public static let trackPointExtensionV2 = "http://www.garmin.com/xmlschemas/TrackPointExtension/v2"

    /// `tracks` of segments of points; v2 writes each point's speed, v1 has none.
    public static func document(_ tracks: [[[WrittenPoint]]], version2: Bool, style: inout RandomXMLStyle) -> String {
        let p = style.pick(["", "", "g:"])
        let x = style.pick(["gpxtpx:", "ns3:", "tp:", ""])
        let extensionNamespace = version2 ? trackPointExtensionV2 : trackPointExtensionV1
        // The extension's namespace is declared on the root, or on each TrackPointExtension.
        let declaredAtRoot = !x.isEmpty && style.random.chance(0.5)
        var text = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\(style.gap())<!-- written by a test -->\(style.gap())"
        text += "<\(p)gpx creator=\"a test &amp; its writer\" version=\"1.1\" \(RandomXMLStyle.declaration(p, gpx))"
        text += declaredAtRoot ? " \(RandomXMLStyle.declaration(x, extensionNamespace))>" : ">"
        text += "\(style.gap())<\(p)metadata>\(style.element("\(p)time", "2000-01-01T00:00:00Z"))</\(p)metadata>"
        // A waypoint and a route: places and plans, whatever times they carry.
        text += "\(style.gap())<\(p)wpt lat=\"1\" lon=\"2\">\(style.element("\(p)time", "2000-01-01T00:00:00Z"))</\(p)wpt>"
        text += "\(style.gap())<\(p)rte><\(p)rtept lat=\"1\" lon=\"2\">\(style.element("\(p)time", "2000-01-01T00:00:00Z"))</\(p)rtept></\(p)rte>"
        for track in tracks {
            text += "\(style.gap())<\(p)trk>\(style.element("\(p)name", "Run <\(style.random.below(9))>"))"
            for segment in track {
                text += "\(style.gap())<\(p)trkseg>"
                for point in segment {
                    let declaration = declaredAtRoot ? "" : " " + RandomXMLStyle.declaration(x, extensionNamespace)
                    text += style.gap() + trackPoint(point, prefix: p, extensionPrefix: x, declaration: declaration, version2: version2, style: &style)
                }
                text += "\(style.gap())</\(p)trkseg>"
            }
            text += "\(style.gap())</\(p)trk>"
        }
        return text + "\(style.gap())</\(p)gpx>\n"
    }

    private static func trackPoint(_ point: WrittenPoint, prefix p: String, extensionPrefix x: String, declaration: String, version2: Bool,
                                   style: inout RandomXMLStyle) -> String {
        var text = "<\(p)trkpt"
        if let position = point.position {
            let lat = "lat=\"\(position.latitude)\"", lon = "lon='\(position.longitude)'"
            text += style.random.chance(0.5) ? " \(lat) \(lon)" : "\n  \(lon)\t\(lat)"
        }
        text += ">\(style.gap())"
        if style.random.chance(0.5) { text += style.element("\(p)ele", "12.5") }
        if let time = point.time {
            let offset: Int? = style.pick([nil, 0, 0, 60, -300, 330, -570]) // nil: no zone, read as UTC
            text += style.gap() + style.element("\(p)time", XSDTimeText.format(microseconds: time, offsetMinutes: offset))
        }
        var fields = ""
        if style.random.chance(0.3) { fields += style.element("\(x)atemp", "19") }
        if let heartRate = point.heartRate { fields += style.gap() + style.element("\(x)hr", "\(heartRate)") }
        if let cadence = point.cadence { fields += style.gap() + style.element("\(x)cad", "\(cadence)") }
        if version2, let speed = point.speed { fields += style.gap() + style.element("\(x)speed", "\(speed)") }
        let unknown = style.random.chance(0.2)
        if !fields.isEmpty || unknown {
            text += "\(style.gap())<\(p)extensions>"
            if unknown { text += style.pick(["<\(p)power>210</\(p)power>", "<stress xmlns=\"urn:example:unknown-vendor\">42</stress>"]) }
            if !fields.isEmpty { text += "<\(x)TrackPointExtension\(declaration)>\(fields)\(style.gap())</\(x)TrackPointExtension>" }
            text += "\(style.gap())</\(p)extensions>"
        }
        return text + "\(style.gap())</\(p)trkpt>"
    }
}
