import Sensors

/// Builds trace events from a workout recording: `t_seconds,bpm` rows, optionally with
/// `t_seconds,rr_ms` rows (the time of the beat that ends each interval). Each rate row becomes
/// one 0x2A37 notification with contact detected, carrying the RR intervals that ended since the
/// previous notification, as a strap would send them.
public enum RecordingImport {
    /// The default wall-clock start, fixed so that the same recording always gives the same trace.
    public static let defaultStart = Timestamp(unixSeconds: 1_704_088_800) // 2024-01-01T06:00:00Z

    public struct Result: Sendable {
        public var events: [StrapEvent]
        /// RR intervals that end after the last rate row: no notification can carry them.
        public var droppedTrailingIntervals: Int
    }

    public static func events(
        heartRate: [CSVRow], rrIntervals: [CSVRow] = [], start: Timestamp, source: String
    ) -> Result {
        var events = [
            StrapEvent(time: start, kind: .note("imported from \(source)")),
            StrapEvent(time: start, kind: .connected),
        ]
        events.reserveCapacity(heartRate.count + 2)
        var nextInterval = 0
        for row in heartRate {
            let rowTime = microseconds(row.seconds)
            var intervals: [UInt16] = []
            while nextInterval < rrIntervals.count, microseconds(rrIntervals[nextInterval].seconds) <= rowTime {
                intervals.append(rrUnits(milliseconds: rrIntervals[nextInterval].value))
                nextInterval += 1
            }
            let measurement = HeartRateMeasurement(
                beatsPerMinute: UInt16(row.value.rounded()), sensorContact: .detected, rrIntervals: intervals
            )
            events.append(StrapEvent(
                time: start.adding(microseconds: rowTime),
                kind: .notification(characteristic: .heartRateMeasurement, value: measurement.encoded())
            ))
        }
        return Result(events: events, droppedTrailingIntervals: rrIntervals.count - nextInterval)
    }

    private static func microseconds(_ seconds: Double) -> Int64 {
        Int64((seconds * Double(Timestamp.microsecondsPerSecond)).rounded())
    }

    private static func rrUnits(milliseconds: Double) -> UInt16 {
        UInt16((milliseconds * Double(HeartRateMeasurement.rrUnitsPerSecond) / 1000).rounded())
    }
}
