import Platform
import Sensors
import Synchronization

/// The NDJSON envelope of one update (docs/live-activity-updates.md): fixed field order, envelope
/// times in Unix seconds, `attributes` and `contentState` embedded as the exact ActivityKit bytes.
/// Written in one pass into one buffer: this runs for every update a replay or a live run sends.
public enum UpdateLine {
    /// One line, newline included. Throws `payloadTooLarge` rather than emit what the phone would refuse.
    public static func encode(_ update: ActivityUpdate) throws(LiveStateError) -> [UInt8] {
        encodings?.count.add(1, ordering: .relaxed)
        var json = JSONBytes(capacity: 512)
        json.beginObject()
        json.key("event")
        json.string(update.event.rawValue)
        json.key("activity")
        json.string(update.activityID)
        json.key("sequence")
        json.integer(update.sequence)
        json.key("timestamp")
        json.unixSeconds(update.timestamp)
        json.key("staleDate")
        json.unixSeconds(update.staleDate)
        if let dismissal = update.dismissalDate {
            json.key("dismissalDate")
            json.unixSeconds(dismissal)
        }
        json.key("priority")
        json.integer(update.priority)
        json.key("reason")
        json.string(update.reason.rawValue)
        json.key("attributesType")
        json.string(WorkoutActivityAttributes.typeName)
        json.key("attributes")
        let attributesStart = json.count
        json.append(update.attributes)
        let attributesCount = json.count - attributesStart
        json.key("contentState")
        let contentStateStart = json.count
        try json.append(update.contentState)
        try ActivityKitEncoding.checkLimit(byteCount: attributesCount + json.count - contentStateStart)
        json.endObject()
        json.raw(UInt8(ascii: "\n"))
        return json.bytes
    }

    /// Counts the lines encoded in a task that binds one (`$encodings.withValue`): how a test shows
    /// that the state file and every sink share one encoding of each update.
    @TaskLocal package static var encodings: EncodingCount?

    package final class EncodingCount: Sendable {
        package let count = Atomic<Int>(0)

        package init() {}
    }

    /// Exact decimal seconds from whole microseconds: `1704088801`, `1704088801.25`; never float noise.
    public static func unixSecondsText(_ time: Timestamp) -> String {
        var json = JSONBytes(capacity: 24)
        json.unixSeconds(time)
        return String(decoding: json.bytes, as: UTF8.self)
    }
}

extension JSONBytes {
    /// Unix seconds from whole microseconds, as an exact decimal: no trailing zeros, no fraction when whole.
    public mutating func unixSeconds(_ time: Timestamp) {
        let micros = time.microsecondsSinceUnixEpoch
        if micros < 0 { raw(UInt8(ascii: "-")) }
        let perSecond = UInt64(Timestamp.microsecondsPerSecond)
        integer(Int(micros.magnitude / perSecond))
        var fraction = micros.magnitude % perSecond
        guard fraction != 0 else { return }
        raw(UInt8(ascii: "."))
        var divisor = perSecond / 10
        while fraction != 0 {
            raw(UInt8(ascii: "0") + UInt8(fraction / divisor))
            fraction %= divisor
            divisor /= 10
        }
    }
}
