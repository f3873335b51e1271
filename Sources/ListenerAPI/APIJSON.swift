import Platform
import LiveState
import Session

/// The API's JSON bodies, written with the one JSON writer (`JSONBytes`).
enum APIJSON {
    /// `{"error": "…"}`.
    static func error(_ reason: String) -> [UInt8] {
        var json = JSONBytes(capacity: reason.utf8.count + 16)
        json.beginObject()
        json.key("error")
        json.string(reason, escapingSlash: false)
        json.endObject()
        return json.bytes
    }

    /// One activity: `{"activity": ID, "strap": NAME, "state": "running", "sequence": 7, …}`.
    static func activity(_ state: ActivityState, strap: String, into json: inout JSONBytes) {
        json.beginObject()
        json.key("activity")
        json.string(state.activityID)
        json.key("strap")
        json.string(strap, escapingSlash: false)
        json.key("state")
        json.string(state.phase.rawValue)
        json.key("sequence")
        json.integer(state.sequence)
        json.key("reason")
        json.string(state.reason)
        json.key("heartRate")
        if let rate = state.heartRate { json.integer(rate) } else { json.null() }
        json.key("distanceMeters")
        number(state.distanceMeters, into: &json)
        json.key("intervalLabel")
        json.string(state.intervalLabel, escapingSlash: false)
        json.key("updatedAt")
        number(state.updatedAt.unixSeconds, into: &json)
        if let pushToken = state.pushToken {
            json.key("pushToken")
            json.string(pushToken.rawValue)
        }
        if let channel = state.channel {
            json.key("channel")
            json.string(channel, escapingSlash: false)
        }
        json.endObject()
    }

    static func activity(_ state: ActivityState, strap: String) -> [UInt8] {
        var json = JSONBytes()
        activity(state, strap: strap, into: &json)
        return json.bytes
    }

    /// A list under `key`: `{"activities": [A, B]}`.
    static func list(_ key: StaticString, _ count: Int, _ element: (Int, inout JSONBytes) -> Void) -> [UInt8] {
        var json = JSONBytes(capacity: 64 + 256 * count)
        json.beginObject()
        json.key(key)
        json.array(0..<count) { json, index in
            element(index, &json)
        }
        json.endObject()
        return json.bytes
    }

    /// Distances and times are finite; a NaN would be the engine's bug, written as null, not a trap.
    private static func number(_ value: Double, into json: inout JSONBytes) {
        do {
            try json.number(value)
        } catch {
            json.null()
        }
    }
}
