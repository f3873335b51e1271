import Platform
import LiveState
import Sensors
import SinkVocabulary

/// The body of `POST /api/push` for a Live Activity (Airship API v3, `notification.ios.live_activity`):
/// snake_case keys, times in whole Unix seconds, and `content_state` / `attributes` in ActivityKit's
/// own encoding (Foundation's default JSONEncoder strategies: dates as seconds since 2001), which
/// Airship hands to APNs unchanged, so the phone decodes them like a local update. Written as
/// JSONEncoder with sorted keys and slashes as they are would write it.
struct AirshipPayload {
    /// The same alert a push-to-start shows through APNs.
    typealias Alert = APNsPayload.Alert

    struct LiveActivity {
        var event: String
        var name: String
        var priority: Int
        var contentState: WorkoutActivityAttributes.ContentState
        var timestamp: Int64
        var staleDate: Int64
        var dismissalDate: Int64?
        var relevanceScore: Double?
        var attributesType: String?
        var attributes: WorkoutActivityAttributes?
        var alert: Alert?
    }

    var audience: AirshipSinkSettings.Audience
    var liveActivity: LiveActivity

    init(update: ActivityUpdate, settings: AirshipSinkSettings) {
        liveActivity = LiveActivity(
            event: update.event.rawValue, name: settings.activityName ?? update.activityID, priority: update.priority,
            contentState: update.contentState, timestamp: APNsPayload.unixSeconds(update.timestamp),
            staleDate: APNsPayload.unixSeconds(update.staleDate),
            dismissalDate: update.event == .end ? update.dismissalDate.map(APNsPayload.unixSeconds) : nil,
            relevanceScore: settings.relevanceScore
        )
        if update.event == .start {
            liveActivity.attributesType = WorkoutActivityAttributes.typeName
            liveActivity.attributes = update.attributes
            liveActivity.alert = Alert(title: settings.startAlertTitle, body: settings.startAlertBody)
        }
        audience = settings.audience
    }

    /// `{"audience":…,"device_types":["ios"],"notification":{"ios":{"live_activity":{…}}}}`, every
    /// object's keys in code-unit order.
    func encoded() throws -> [UInt8] {
        var json = JSONBytes(capacity: 640)
        json.beginObject()
        json.key("audience")
        switch audience {
        case .all:
            json.string("all")
        case let .channel(id):
            json.beginObject()
            json.key("ios_channel")
            json.string(id, escapingSlash: false)
            json.endObject()
        }
        json.key("device_types")
        json.raw { $0.append(contentsOf: Array(#"["ios"]"#.utf8)) }
        json.key("notification")
        json.beginObject()
        json.key("ios")
        json.beginObject()
        json.key("live_activity")
        try write(liveActivity, to: &json)
        json.endObject()
        json.endObject()
        json.endObject()
        return json.bytes
    }

    private func write(_ activity: LiveActivity, to json: inout JSONBytes) throws {
        json.beginObject()
        if let alert = activity.alert {
            json.key("alert")
            alert.write(to: &json)
        }
        if let attributes = activity.attributes {
            json.key("attributes")
            json.append(attributes, escapingSlash: false)
        }
        if let type = activity.attributesType {
            json.key("attributes_type")
            json.string(type, escapingSlash: false)
        }
        json.key("content_state")
        try json.append(activity.contentState, escapingSlash: false)
        if let dismissal = activity.dismissalDate {
            json.key("dismissal_date")
            json.integer(dismissal)
        }
        json.key("event")
        json.string(activity.event, escapingSlash: false)
        json.key("name")
        json.string(activity.name, escapingSlash: false)
        json.key("priority")
        json.integer(activity.priority)
        if let score = activity.relevanceScore {
            json.key("relevance_score")
            try json.number(score)
        }
        json.key("stale_date")
        json.integer(activity.staleDate)
        json.key("timestamp")
        json.integer(activity.timestamp)
        json.endObject()
    }
}
