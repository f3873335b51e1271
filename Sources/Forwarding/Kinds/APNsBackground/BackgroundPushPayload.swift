import LiveState
import Platform

/// The body of a background push: `{"aps": {"content-available": 1}}` and, beside it, what the app
/// needs to update its own activity: the activity id, the sequence (to ignore one that comes late),
/// the event, the stale and dismissal dates (Unix seconds) and the content state under `key`, in
/// ActivityKit's encoding (Foundation's default JSONEncoder strategies), ready for `ActivityContent`.
/// Written as JSONEncoder with sorted keys and slashes as they are would write it.
struct BackgroundPushPayload {
    let key: String
    let update: ActivityUpdate

    func encoded() throws -> [UInt8] {
        var members: [(key: String, value: [UInt8])] = [
            ("aps", Array(#"{"content-available":1}"#.utf8)),
            ("activity", JSONBytes.value { $0.string(update.activityID, escapingSlash: false) }),
            ("sequence", JSONBytes.value { $0.integer(update.sequence) }),
            ("event", JSONBytes.value { $0.string(update.event.rawValue, escapingSlash: false) }),
            ("staleDate", JSONBytes.value { $0.integer(APNsPayload.unixSeconds(update.staleDate)) }),
        ]
        if update.event == .end, let dismissal = update.dismissalDate {
            members.append(("dismissalDate", JSONBytes.value { $0.integer(APNsPayload.unixSeconds(dismissal)) }))
        }
        let contentState = update.contentState
        members.append((key, try JSONBytes.value(capacity: 192) { json throws in try json.append(contentState, escapingSlash: false) }))
        var json = JSONBytes(capacity: 384)
        // `key` is the app's choice: the members are sorted as they come.
        json.object(sortingKeys: members, escapingSlash: false)
        return json.bytes
    }
}
