import Platform
import Sensors
import LiveState
import SinkVocabulary

/// The body of a Live Activity push (Apple, "Starting and updating Live Activities with ActivityKit
/// push notifications"): everything under `aps`, hyphenated keys, times in whole Unix seconds, and
/// `content-state` / `attributes` in ActivityKit's own encoding (Foundation's default JSONEncoder
/// strategies: dates as seconds since 2001), so the phone decodes them like a local update. Written
/// as JSONEncoder with sorted keys and slashes as they are would write it. A
/// push-to-start asks for the new activity's update token (`input-push-token`, iOS 18), or joins it to
/// a broadcast channel instead (`input-push-channel`), and names hrbridge's activity in the
/// attributes, so the app can say which activity a token is for.
struct APNsPayload {
    struct Alert {
        var title: String
        var body: String

        func write(to json: inout JSONBytes) {
            json.beginObject()
            json.key("body")
            json.string(body, escapingSlash: false)
            json.key("title")
            json.string(title, escapingSlash: false)
            json.endObject()
        }
    }

    struct APS {
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
    struct StartAttributes {
        var attributes: WorkoutActivityAttributes
        var activityIDKey: String?
        var activityID: String

        func write(to json: inout JSONBytes) {
            guard let activityIDKey else { return json.append(attributes, escapingSlash: false) }
            let name = JSONBytes.value { $0.string(attributes.workoutName, escapingSlash: false) }
            let id = JSONBytes.value { $0.string(activityID, escapingSlash: false) }
            json.object(sortingKeys: [("workoutName", name), (activityIDKey, id)], escapingSlash: false)
        }
    }

    /// `{"aps":{…}}`, its keys in code-unit order.
    func encoded() throws -> [UInt8] {
        var json = JSONBytes(capacity: 512)
        json.beginObject()
        json.key("aps")
        json.beginObject()
        if let alert = aps.alert {
            json.key("alert")
            alert.write(to: &json)
        }
        if let attributes = aps.attributes {
            json.key("attributes")
            attributes.write(to: &json)
        }
        if let type = aps.attributesType {
            json.key("attributes-type")
            json.string(type, escapingSlash: false)
        }
        json.key("content-state")
        try json.append(aps.contentState, escapingSlash: false)
        if let dismissal = aps.dismissalDate {
            json.key("dismissal-date")
            json.integer(dismissal)
        }
        json.key("event")
        json.string(aps.event, escapingSlash: false)
        if let channel = aps.inputPushChannel {
            json.key("input-push-channel")
            json.string(channel, escapingSlash: false)
        }
        if let token = aps.inputPushToken {
            json.key("input-push-token")
            json.integer(token)
        }
        if let score = aps.relevanceScore {
            json.key("relevance-score")
            try json.number(score)
        }
        json.key("stale-date")
        json.integer(aps.staleDate)
        json.key("timestamp")
        json.integer(aps.timestamp)
        json.endObject()
        json.endObject()
        return json.bytes
    }

    static func unixSeconds(_ time: Timestamp) -> Int64 {
        time.microsecondsSinceUnixEpoch / Timestamp.microsecondsPerSecond
    }
}
