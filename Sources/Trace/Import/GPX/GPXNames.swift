/// The namespaces a GPX file is read by: GPX 1.1, and Garmin's TrackPointExtension, whose v1 and
/// v2 both hold heart rate and cadence (v2 adds speed). Names are matched by namespace URI, whatever
/// prefix (`gpxtpx:`, `ns3:`) a file gives them.
enum GPXNames {
    static let gpx = "http://www.topografix.com/GPX/1/1"
    static let gpx10 = "http://www.topografix.com/GPX/1/0"
    static let trackPointExtensionV1 = "http://www.garmin.com/xmlschemas/TrackPointExtension/v1"
    static let trackPointExtensionV2 = "http://www.garmin.com/xmlschemas/TrackPointExtension/v2"

    static func gpx(_ local: String) -> XMLName { XMLName(gpx, local) }
}
