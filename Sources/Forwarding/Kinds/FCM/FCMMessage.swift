import Platform
import FoundationEssentials
import LiveState
import Sensors

/// The FCM HTTP v1 message for an update (`{"message": {…}}`): to a registration token or a topic;
/// `data` the update's snapshot with string values only (FCM refuses anything else), times in Unix
/// milliseconds as Android's `System.currentTimeMillis()` counts; `android.priority` high for what
/// a person must see at once (priority 10) and normal otherwise; `collapse_key` the activity, so a
/// phone that was offline gets only its newest state; `ttl` up to the stale date. Written as
/// JSONEncoder with sorted keys and slashes as they are would write it.
struct FCMMessage {
    enum Target: Sendable, Equatable {
        case token(String)
        case topic(String)
    }

    struct Android {
        var priority: String
        var collapseKey: String
        var ttl: String
    }

    struct Message {
        var target: Target
        var data: [String: String]
        var android: Android
    }

    var message: Message

    /// FCM's limit on a message's payload.
    static let byteLimit = 4096

    init(update: ActivityUpdate, target: Target) {
        let ttl = max(0, update.staleDate.microsecondsSinceUnixEpoch - update.timestamp.microsecondsSinceUnixEpoch) / 1_000_000
        message = Message(target: target, data: Self.snapshot(update), android: Android(
            priority: update.priority == ActivityUpdate.immediatePriority ? "high" : "normal",
            collapseKey: update.activityID, ttl: "\(ttl)s"))
    }

    /// Every field as a string: what the Android app shows in its ongoing notification.
    static func snapshot(_ update: ActivityUpdate) -> [String: String] {
        let state = update.contentState
        var data = [
            "event": update.event.rawValue,
            "reason": update.reason.rawValue,
            "activity": update.activityID,
            "sequence": String(update.sequence),
            "workoutName": update.attributes.workoutName,
            "timerStart": milliseconds(state.timerRange.lowerBound),
            "timerEnd": milliseconds(state.timerRange.upperBound),
            "distanceMeters": JSONNumberText.text(state.distanceMeters),
            "label": state.intervalLabel,
            "staleAt": String(update.staleDate.microsecondsSinceUnixEpoch / 1000),
        ]
        if let pausedAt = state.pausedAt { data["pausedAt"] = milliseconds(pausedAt) }
        if let heartRate = state.heartRate { data["heartRate"] = String(heartRate) }
        if update.event == .end, let dismissal = update.dismissalDate { data["dismissAt"] = String(dismissal.microsecondsSinceUnixEpoch / 1000) }
        return data
    }

    static func milliseconds(_ date: Date) -> String {
        String(Int64((date.timeIntervalSince1970 * 1000).rounded()))
    }

    /// `{"message":{"android":{…},"data":{…},"token"|"topic":…}}`, every object's keys in code-unit order.
    func encoded() -> [UInt8] {
        var json = JSONBytes(capacity: 768)
        json.beginObject()
        json.key("message")
        json.beginObject()
        json.key("android")
        json.beginObject()
        json.key("collapse_key")
        json.string(message.android.collapseKey, escapingSlash: false)
        json.key("priority")
        json.string(message.android.priority, escapingSlash: false)
        json.key("ttl")
        json.string(message.android.ttl, escapingSlash: false)
        json.endObject()
        json.key("data")
        json.object(sortingKeys: message.data.map { entry in (entry.key, JSONBytes.value { $0.string(entry.value, escapingSlash: false) }) },
                    escapingSlash: false)
        switch message.target {
        case let .token(token):
            json.key("token")
            json.string(token, escapingSlash: false)
        case let .topic(topic):
            json.key("topic")
            json.string(topic, escapingSlash: false)
        }
        json.endObject()
        json.endObject()
        return json.bytes
    }
}

/// A distance as the NDJSON line prints it (`1234.5`, `0`), so both say the same number.
enum JSONNumberText {
    static func text(_ value: Double) -> String {
        var bytes = JSONBytes()
        do {
            try bytes.number(value)
        } catch {
            return String(value)
        }
        return String(decoding: bytes.bytes, as: UTF8.self)
    }
}
