/// The namespaces a TCX file is read by: the schema's own and Garmin's ActivityExtension v2, which
/// holds a Trackpoint's speed and running cadence. Names are matched by namespace URI, whatever
/// prefix (`ns3:`, `ext:`) a file gives them.
enum TCXNames {
    static let database = "http://www.garmin.com/xmlschemas/TrainingCenterDatabase/v2"
    static let activityExtension = "http://www.garmin.com/xmlschemas/ActivityExtension/v2"

    static func tcx(_ local: String) -> XMLName { XMLName(database, local) }
    static func extensionV2(_ local: String) -> XMLName { XMLName(activityExtension, local) }
}
