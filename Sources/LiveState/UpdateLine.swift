import HeartRate

/// The NDJSON envelope of one update (README "Live Activity updates"): fixed field order, envelope
/// times in Unix seconds, `attributes` and `contentState` embedded as the exact ActivityKit bytes.
public enum UpdateLine {
    /// One line, newline included. Throws `payloadTooLarge` rather than emit what the phone would refuse.
    public static func encode(_ update: ActivityUpdate) throws(LiveStateError) -> [UInt8] {
        let payload = try ActivityKitEncoding.payload(attributes: update.attributes, contentState: update.contentState)
        var line: [UInt8] = []
        line.reserveCapacity(payload.byteCount + 256)
        func field(_ name: String, _ value: [UInt8], first: Bool = false) {
            if !first { line.append(UInt8(ascii: ",")) }
            line.append(contentsOf: "\"\(name)\":".utf8)
            line.append(contentsOf: value)
        }
        line.append(UInt8(ascii: "{"))
        field("event", try quoted(update.event.rawValue), first: true)
        field("activity", try quoted(update.activityID))
        field("sequence", Array(String(update.sequence).utf8))
        field("timestamp", Array(unixSecondsText(update.timestamp).utf8))
        field("staleDate", Array(unixSecondsText(update.staleDate).utf8))
        if let dismissal = update.dismissalDate {
            field("dismissalDate", Array(unixSecondsText(dismissal).utf8))
        }
        field("priority", Array(String(update.priority).utf8))
        field("reason", try quoted(update.reason.rawValue))
        field("attributesType", try quoted(WorkoutActivityAttributes.typeName))
        field("attributes", payload.attributes)
        field("contentState", payload.contentState)
        line.append(contentsOf: "}\n".utf8)
        return line
    }

    /// Exact decimal seconds from whole microseconds: `1704088801`, `1704088801.25`; never float noise.
    public static func unixSecondsText(_ time: Timestamp) -> String {
        let micros = time.microsecondsSinceUnixEpoch
        let sign = micros < 0 ? "-" : ""
        let seconds = micros.magnitude / UInt64(Timestamp.microsecondsPerSecond)
        let fraction = micros.magnitude % UInt64(Timestamp.microsecondsPerSecond)
        guard fraction != 0 else { return "\(sign)\(seconds)" }
        var digits = String(fraction)
        digits = String(repeating: "0", count: 6 - digits.count) + digits
        while digits.hasSuffix("0") { digits.removeLast() }
        return "\(sign)\(seconds).\(digits)"
    }

    /// A JSON string literal, escaped by Foundation's encoder (one escaping rule for all our JSON).
    private static func quoted(_ text: String) throws(LiveStateError) -> [UInt8] {
        try ActivityKitEncoding.encodeValue(text)
    }
}
