import FoundationEssentials
import Sensors
import LiveState
import SinkVocabulary

/// The body of a Live Activity push (Apple, "Starting and updating Live Activities with ActivityKit
/// push notifications"): everything under `aps`, hyphenated keys, times in whole Unix seconds, and
/// `content-state` / `attributes` in ActivityKit's own encoding (Foundation's default JSONEncoder
/// strategies: dates as seconds since 2001), so the phone decodes them like a local update.
struct APNsPayload: Encodable {
    struct Alert: Encodable {
        var title: String
        var body: String
    }

    struct APS: Encodable {
        var timestamp: Int64
        var event: String
        var contentState: WorkoutActivityAttributes.ContentState
        var staleDate: Int64
        var dismissalDate: Int64?
        var relevanceScore: Double?
        var attributesType: String?
        var attributes: WorkoutActivityAttributes?
        var alert: Alert?

        enum CodingKeys: String, CodingKey {
            case timestamp, event, alert, attributes
            case contentState = "content-state"
            case staleDate = "stale-date"
            case dismissalDate = "dismissal-date"
            case relevanceScore = "relevance-score"
            case attributesType = "attributes-type"
        }
    }

    var aps: APS

    /// APNs refuses larger payloads (413 PayloadTooLarge); we check before sending.
    static let byteLimit = 4096

    /// A push-to-start (event `start` with attributes and an alert) or an update/end push.
    init(update: ActivityUpdate, pushToStart: Bool, settings: APNsSinkSettings) {
        aps = APS(
            timestamp: Self.unixSeconds(update.timestamp),
            event: pushToStart ? "start" : (update.event == .end ? "end" : "update"),
            contentState: update.contentState,
            staleDate: Self.unixSeconds(update.staleDate),
            dismissalDate: update.event == .end ? update.dismissalDate.map(Self.unixSeconds) : nil,
            relevanceScore: settings.relevanceScore
        )
        if pushToStart {
            aps.attributesType = WorkoutActivityAttributes.typeName
            aps.attributes = update.attributes
            aps.alert = Alert(title: settings.startAlertTitle, body: settings.startAlertBody)
        }
    }

    func encoded() throws -> [UInt8] {
        let encoder = JSONEncoder()
        // Default date strategy on purpose (ActivityKit's); sorted keys for byte-stable output.
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return Array(try encoder.encode(self))
    }

    static func unixSeconds(_ time: Timestamp) -> Int64 {
        time.microsecondsSinceUnixEpoch / Timestamp.microsecondsPerSecond
    }
}
