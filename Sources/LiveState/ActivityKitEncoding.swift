import HeartRate
import Foundation

/// The bytes ActivityKit reads: Foundation's default `JSONEncoder` strategies (dates as seconds since
/// 2001-01-01, `ClosedRange` as `[lower, upper]`, nil optionals absent), plus sorted keys so that equal
/// states give equal bytes (decoders ignore key order).
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
        try encodeValue(contentState)
    }

    public static func encode(_ attributes: WorkoutActivityAttributes) throws(LiveStateError) -> [UInt8] {
        try encodeValue(attributes)
    }

    /// Both parts, or `payloadTooLarge` when together they exceed the limit.
    public static func payload(
        attributes: WorkoutActivityAttributes, contentState: WorkoutActivityAttributes.ContentState
    ) throws(LiveStateError) -> Payload {
        let payload = Payload(attributes: try encode(attributes), contentState: try encode(contentState))
        guard payload.byteCount <= payloadLimit else {
            throw .payloadTooLarge(bytes: payload.byteCount, limit: payloadLimit)
        }
        return payload
    }

    /// A `Date` for an instant, computed from whole microseconds since 2001-01-01 so that the encoded
    /// number is the shortest exact decimal (`725781600.5`), not float noise from a Unix-epoch detour.
    public static func date(_ time: Timestamp) -> Date {
        let sinceReference = time.microsecondsSinceUnixEpoch - unixToReferenceMicroseconds
        return Date(timeIntervalSinceReferenceDate: Double(sinceReference) / Double(Timestamp.microsecondsPerSecond))
    }

    /// 2001-01-01T00:00:00Z in microseconds since the Unix epoch.
    static let unixToReferenceMicroseconds: Int64 = 978_307_200 * Timestamp.microsecondsPerSecond

    static func encodeValue<Value: Encodable>(_ value: Value) throws(LiveStateError) -> [UInt8] {
        // A fresh encoder per call: JSONEncoder is not Sendable, and these calls are rare (a few per minute).
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        do {
            return Array(try encoder.encode(value))
        } catch {
            throw .encodingFailed("\(error)")
        }
    }
}
