import FoundationEssentials
import Sensors
import LiveState
import SinkVocabulary

/// The body of a Live Activity push (Apple, "Starting and updating Live Activities with ActivityKit
/// push notifications"): everything under `aps`, hyphenated keys, times in whole Unix seconds, and
/// `content-state` / `attributes` in ActivityKit's own encoding (Foundation's default JSONEncoder
/// strategies: dates as seconds since 2001), so the phone decodes them like a local update. A
/// push-to-start asks for the new activity's update token (`input-push-token`, iOS 18), or joins it to
/// a broadcast channel instead (`input-push-channel`), and names hrbridge's activity in the
/// attributes, so the app can say which activity a token is for.
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
        var attributes: StartAttributes?
        var alert: Alert?
        /// 1 on a push-to-start: the system issues the started activity's update token to the app.
        var inputPushToken: Int?
        /// On a push-to-start to a broadcast channel's strap: the started activity takes its updates
        /// from this channel instead of a token of its own.
        var inputPushChannel: String?

        enum CodingKeys: String, CodingKey {
            case timestamp, event, alert, attributes
            case inputPushToken = "input-push-token"
            case inputPushChannel = "input-push-channel"
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

    /// A push-to-start (event `start` with attributes and an alert) or an update/end push;
    /// `joining`: the push-to-start joins the new activity to this broadcast channel.
    init(update: ActivityUpdate, pushToStart: Bool, joining channel: String? = nil, settings: APNsSinkSettings) {
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
            aps.attributes = StartAttributes(attributes: update.attributes, activityIDKey: settings.activityIDAttribute,
                                             activityID: update.activityID)
            aps.alert = Alert(title: settings.startAlertTitle, body: settings.startAlertBody)
            if let channel { aps.inputPushChannel = channel } else { aps.inputPushToken = 1 }
        }
    }

    /// The app's attributes, and hrbridge's activity id beside them under `activityIDKey` (nil:
    /// left out). ActivityKit decodes attributes with a plain decoder, which ignores a key the
    /// app's struct does not declare: an app without it starts the activity all the same.
    struct StartAttributes: Encodable {
        var attributes: WorkoutActivityAttributes
        var activityIDKey: String?
        var activityID: String

        struct Key: CodingKey {
            var stringValue: String
            var intValue: Int? { nil }
            init(stringValue: String) { self.stringValue = stringValue }
            init?(intValue: Int) { nil }
        }

        func encode(to encoder: any Encoder) throws {
            try attributes.encode(to: encoder)
            guard let activityIDKey else { return }
            var container = encoder.container(keyedBy: Key.self)
            try container.encode(activityID, forKey: Key(stringValue: activityIDKey))
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
