import FoundationEssentials
import LiveState
import Sensors
import SinkVocabulary

/// The body of `POST /api/push` for a Live Activity (Airship API v3, `notification.ios.live_activity`):
/// snake_case keys, times in whole Unix seconds, and `content_state` / `attributes` in ActivityKit's
/// own encoding (Foundation's default JSONEncoder strategies: dates as seconds since 2001), which
/// Airship hands to APNs unchanged, so the phone decodes them like a local update.
struct AirshipPayload: Encodable {
    /// The same alert a push-to-start shows through APNs.
    typealias Alert = APNsPayload.Alert

    struct LiveActivity: Encodable {
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

        enum CodingKeys: String, CodingKey {
            case event, name, priority, timestamp, attributes, alert
            case contentState = "content_state"
            case staleDate = "stale_date"
            case dismissalDate = "dismissal_date"
            case relevanceScore = "relevance_score"
            case attributesType = "attributes_type"
        }
    }

    struct IOS: Encodable {
        var liveActivity: LiveActivity

        enum CodingKeys: String, CodingKey {
            case liveActivity = "live_activity"
        }
    }

    struct Notification: Encodable {
        var ios: IOS
    }

    struct Channel: Encodable {
        var iosChannel: String

        enum CodingKeys: String, CodingKey {
            case iosChannel = "ios_channel"
        }
    }

    var audience: AirshipSinkSettings.Audience
    var deviceTypes = ["ios"]
    var notification: Notification

    enum CodingKeys: String, CodingKey {
        case audience, notification
        case deviceTypes = "device_types"
    }

    init(update: ActivityUpdate, settings: AirshipSinkSettings) {
        var activity = LiveActivity(
            event: update.event.rawValue, name: settings.activityName ?? update.activityID, priority: update.priority,
            contentState: update.contentState, timestamp: APNsPayload.unixSeconds(update.timestamp),
            staleDate: APNsPayload.unixSeconds(update.staleDate),
            dismissalDate: update.event == .end ? update.dismissalDate.map(APNsPayload.unixSeconds) : nil,
            relevanceScore: settings.relevanceScore
        )
        if update.event == .start {
            activity.attributesType = WorkoutActivityAttributes.typeName
            activity.attributes = update.attributes
            activity.alert = Alert(title: settings.startAlertTitle, body: settings.startAlertBody)
        }
        audience = settings.audience
        notification = Notification(ios: IOS(liveActivity: activity))
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch audience {
        case .all: try container.encode("all", forKey: .audience)
        case let .channel(id): try container.encode(Channel(iosChannel: id), forKey: .audience)
        }
        try container.encode(deviceTypes, forKey: .deviceTypes)
        try container.encode(notification, forKey: .notification)
    }

    func encoded() throws -> [UInt8] {
        let encoder = JSONEncoder()
        // Default date strategy on purpose (ActivityKit's); sorted keys for byte-stable output.
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return Array(try encoder.encode(self))
    }
}
