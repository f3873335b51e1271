import Platform
import LiveState
import Sensors

/// What one sink did for a session so far, as the preview's strip shows it under each activity.
public struct SinkReport: Sendable, Equatable {
    public var name: String
    public var sent: Int
    /// Unsent content updates replaced by newer content of the same activity.
    public var superseded: Int
    /// Updates in the sink's queue, not yet delivered.
    public var waiting: Int
    public var lastError: String?
    /// What a sink that delivers no updates does instead (a Bluetooth peripheral's centrals).
    public var detail: String?

    public init(name: String, sent: Int, superseded: Int, waiting: Int, lastError: String?, detail: String? = nil) {
        self.name = name
        self.sent = sent
        self.superseded = superseded
        self.waiting = waiting
        self.lastError = lastError
        self.detail = detail
    }
}

/// The JSON objects of the preview's event streams, beside the update itself (whose message
/// carries its NDJSON line unchanged, `EncodedUpdate`): all written by `JSONBytes`, the one writer.
public enum PreviewMessages {
    /// Event names, one per kind of message.
    public static let updateEvent = "update"
    public static let sinksEvent = "sinks"
    public static let clockEvent = "clock"
    public static let heartRateEvent = "heart-rate"

    /// An update's message: `id: activity/sequence`, its NDJSON line as the data. Throws what the
    /// line's encoding throws (a state over ActivityKit's limit, which no sink sent either).
    public static func update(_ encoded: EncodedUpdate) throws(LiveStateError) -> [UInt8] {
        EventStreamFrame.message(id: EventID(encoded.update).description, event: updateEvent, data: try encoded.line.get())
    }

    /// `{"activity":…,"strap":…,"sinks":[{"name":…,"sent":…,"superseded":…,"waiting":…,"lastError":…}]}`;
    /// `lastError` absent while there is none; `detail` only for a sink that says what it does
    /// instead of delivering updates (a Bluetooth peripheral's centrals).
    public static func sinks(activity: String, strap: String, _ reports: [SinkReport]) -> [UInt8] {
        var json = JSONBytes(capacity: 96 + 96 * reports.count)
        json.beginObject()
        json.key("activity")
        json.string(activity)
        json.key("strap")
        json.string(strap)
        json.key("sinks")
        json.array(reports) { json, report in
            json.beginObject()
            json.key("name")
            json.string(report.name)
            json.key("sent")
            json.integer(report.sent)
            json.key("superseded")
            json.integer(report.superseded)
            json.key("waiting")
            json.integer(report.waiting)
            if let lastError = report.lastError {
                json.key("lastError")
                json.string(lastError)
            }
            if let detail = report.detail {
                json.key("detail")
                json.string(detail)
            }
            json.endObject()
        }
        json.endObject()
        return EventStreamFrame.message(id: nil, event: sinksEvent, data: json.bytes)
    }

    /// `{"now":…,"speed":…}`: the session's time (Unix seconds) when the message was written and
    /// how many of its seconds pass per wall second (a paced replay's `--speed`; 1 for `run`). The
    /// page runs timers and stale dates on this clock, as a phone living on it would.
    public static func clock(now: Timestamp, speed: Double) -> [UInt8] {
        var json = JSONBytes(capacity: 48)
        json.beginObject()
        json.key("now")
        json.unixSeconds(now)
        json.key("speed")
        try? json.number(speed.isFinite ? speed : 1) // finite: cannot throw
        json.endObject()
        return EventStreamFrame.message(id: nil, event: clockEvent, data: json.bytes)
    }

    /// The per-strap stream an overlay reads: `{"bpm":142,"zone":2,"distanceMeters":12.5,"strap":…,
    /// "activity":…,"sequence":7,"event":"update","timestamp":1704088805}`. `bpm` is the number the
    /// Live Activity shows, null while the sensor is lost; `zone` (0 below the first of `--zones`)
    /// is absent without zones or without a number.
    public static func heartRate(_ update: ActivityUpdate, strap: String, zoneBoundaries: [Int]) -> [UInt8] {
        var json = JSONBytes(capacity: 192)
        json.beginObject()
        json.key("bpm")
        if let rate = update.contentState.heartRate { json.integer(rate) } else { json.null() }
        if let rate = update.contentState.heartRate, !zoneBoundaries.isEmpty {
            json.key("zone")
            json.integer(HeartRateZones(boundaries: zoneBoundaries, hysteresis: 0).zone(of: rate))
        }
        json.key("distanceMeters")
        try? json.number(update.contentState.distanceMeters) // the engine's distances are finite
        json.key("strap")
        json.string(strap)
        json.key("activity")
        json.string(update.activityID)
        json.key("sequence")
        json.integer(update.sequence)
        json.key("event")
        json.string(update.event.rawValue)
        json.key("timestamp")
        json.unixSeconds(update.timestamp)
        json.endObject()
        return EventStreamFrame.message(id: EventID(update).description, event: heartRateEvent, data: json.bytes)
    }
}
