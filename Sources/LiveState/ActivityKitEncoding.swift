import Platform
import Sensors
import FoundationEssentials

/// The bytes ActivityKit reads: what Foundation's default `JSONEncoder` writes (dates as seconds since
/// 2001-01-01, `ClosedRange` as `[lower, upper]`, nil optionals absent), plus sorted keys so that equal
/// states give equal bytes (decoders ignore key order). Written by `JSONBytes` rather than JSONEncoder:
/// every update is encoded, and JSONEncoder costs far more (docs/performance.md);
/// tests pin the two together.
public enum ActivityKitEncoding {
    /// Apple: "the updated dynamic data for both ActivityKit updates and remote push notifications can't
    /// exceed 4 KB" — measured over attributes + content state as encoded.
    public static let payloadLimit = 4096

    /// Attributes and content state, encoded and checked against `payloadLimit` together.
    public struct Payload: Sendable, Hashable {
        public var attributes: [UInt8]
        public var contentState: [UInt8]
        public var byteCount: Int { attributes.count + contentState.count }
    }

    public static func encode(_ contentState: WorkoutActivityAttributes.ContentState) throws(LiveStateError) -> [UInt8] {
        var json = JSONBytes()
        try json.append(contentState)
        return json.bytes
    }

    public static func encode(_ attributes: WorkoutActivityAttributes) throws(LiveStateError) -> [UInt8] {
        var json = JSONBytes(capacity: 64)
        json.append(attributes)
        return json.bytes
    }

    /// Both parts, or `payloadTooLarge` when together they exceed the limit.
    public static func payload(
        attributes: WorkoutActivityAttributes, contentState: WorkoutActivityAttributes.ContentState
    ) throws(LiveStateError) -> Payload {
        let payload = Payload(attributes: try encode(attributes), contentState: try encode(contentState))
        try checkLimit(byteCount: payload.byteCount)
        return payload
    }

    /// Throws `payloadTooLarge` for an encoded attributes + content state of `byteCount` bytes over the limit.
    static func checkLimit(byteCount: Int) throws(LiveStateError) {
        guard byteCount <= payloadLimit else {
            throw .payloadTooLarge(bytes: byteCount, limit: payloadLimit)
        }
    }

    /// A `Date` for an instant, computed from whole microseconds since 2001-01-01 so that the encoded
    /// number is the shortest exact decimal (`725781600.5`), not float noise from a Unix-epoch detour.
    public static func date(_ time: Timestamp) -> Date {
        let sinceReference = time.microsecondsSinceUnixEpoch - unixToReferenceMicroseconds
        return Date(timeIntervalSinceReferenceDate: Double(sinceReference) / Double(Timestamp.microsecondsPerSecond))
    }

    /// 2001-01-01T00:00:00Z in microseconds since the Unix epoch.
    static let unixToReferenceMicroseconds: Int64 = 978_307_200 * Timestamp.microsecondsPerSecond
}

extension JSONBytes {
    /// The content state as JSONEncoder with sorted keys writes it: keys in code-unit order, absent
    /// optionals left out, dates by their default strategy (seconds since 2001-01-01).
    /// `escapingSlash` false: as an encoder told `.withoutEscapingSlashes` (the push services' bodies).
    public mutating func append(_ state: WorkoutActivityAttributes.ContentState, escapingSlash: Bool = true) throws(LiveStateError) {
        beginObject()
        key("distanceMeters")
        try finite(state.distanceMeters)
        if let heartRate = state.heartRate {
            key("heartRate")
            integer(heartRate)
        }
        key("intervalLabel")
        string(state.intervalLabel, escapingSlash: escapingSlash)
        if let pausedAt = state.pausedAt {
            key("pausedAt")
            try finite(pausedAt.timeIntervalSinceReferenceDate)
        }
        key("timerRange")
        raw(UInt8(ascii: "["))
        try finite(state.timerRange.lowerBound.timeIntervalSinceReferenceDate)
        raw(UInt8(ascii: ","))
        try finite(state.timerRange.upperBound.timeIntervalSinceReferenceDate)
        raw(UInt8(ascii: "]"))
        endObject()
    }

    /// A number, or the live-state module's refusal when it has no JSON form.
    private mutating func finite(_ value: Double) throws(LiveStateError) {
        do {
            try number(value)
        } catch {
            throw .encodingFailed(error.description)
        }
    }

    public mutating func append(_ attributes: WorkoutActivityAttributes, escapingSlash: Bool = true) {
        beginObject()
        key("workoutName")
        string(attributes.workoutName, escapingSlash: escapingSlash)
        endObject()
    }
}
