import Platform
import FoundationEssentials
import LiveState
import Sensors

/// The FCM HTTP v1 message for an update (`{"message": {…}}`): to a registration token or a topic;
/// `data` the update's snapshot with string values only (FCM refuses anything else), times in Unix
/// milliseconds as Android's `System.currentTimeMillis()` counts; `android.priority` high for what
/// a person must see at once (priority 10) and normal otherwise; `collapse_key` the activity, so a
/// phone that was offline gets only its newest state; `ttl` up to the stale date.
struct FCMMessage: Encodable {
    enum Target: Sendable, Equatable {
        case token(String)
        case topic(String)
    }

    struct Android: Encodable {
        var priority: String
        var collapseKey: String
        var ttl: String

        enum CodingKeys: String, CodingKey {
            case priority, ttl
            case collapseKey = "collapse_key"
        }
    }

    struct Message: Encodable {
        var target: Target
        var data: [String: String]
        var android: Android

        enum CodingKeys: String, CodingKey {
            case token, topic, data, android
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            switch target {
            case let .token(token): try container.encode(token, forKey: .token)
            case let .topic(topic): try container.encode(topic, forKey: .topic)
            }
            try container.encode(data, forKey: .data)
            try container.encode(android, forKey: .android)
        }
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

    func encoded() throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return Array(try encoder.encode(self))
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
