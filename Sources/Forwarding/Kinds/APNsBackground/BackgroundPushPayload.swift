import FoundationEssentials
import LiveState

/// The body of a background push: `{"aps": {"content-available": 1}}` and, beside it, what the app
/// needs to update its own activity: the activity id, the sequence (to ignore one that comes late),
/// the event, the stale and dismissal dates (Unix seconds) and the content state under `key`, in
/// ActivityKit's encoding (Foundation's default JSONEncoder strategies), ready for `ActivityContent`.
struct BackgroundPushPayload: Encodable {
    struct APS: Encodable {
        var contentAvailable = 1

        enum CodingKeys: String, CodingKey {
            case contentAvailable = "content-available"
        }
    }

    let key: String
    let update: ActivityUpdate

    struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(_ string: String) { stringValue = string }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        try container.encode(APS(), forKey: Key("aps"))
        try container.encode(update.activityID, forKey: Key("activity"))
        try container.encode(update.sequence, forKey: Key("sequence"))
        try container.encode(update.event.rawValue, forKey: Key("event"))
        try container.encode(APNsPayload.unixSeconds(update.staleDate), forKey: Key("staleDate"))
        if update.event == .end, let dismissal = update.dismissalDate {
            try container.encode(APNsPayload.unixSeconds(dismissal), forKey: Key("dismissalDate"))
        }
        try container.encode(update.contentState, forKey: Key(key))
    }

    func encoded() throws -> [UInt8] {
        let encoder = JSONEncoder()
        // Default date strategy on purpose (ActivityKit's); sorted keys for byte-stable output.
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return Array(try encoder.encode(self))
    }
}
