/// A timestamp's UTC calendar fields, by arithmetic on the proleptic Gregorian calendar (Howard
/// Hinnant's civil_from_days): no Foundation Calendar, whose first use loads ICU's time-zone and
/// calendar data, megabytes a long-running bridge would carry for one activity id.
public struct UTCFields: Sendable, Equatable {
    public var year: Int64
    public var month: Int64
    public var day: Int64
    public var hour: Int64
    public var minute: Int64
    public var second: Int64
    public var microsecond: Int64
}

extension Timestamp {
    public var utcFields: UTCFields {
        let perDay = 86_400 * Self.microsecondsPerSecond
        let days = microsecondsSinceUnixEpoch.floorDiv(perDay)
        let inDay = microsecondsSinceUnixEpoch - days * perDay
        let seconds = inDay / Self.microsecondsPerSecond
        let shifted = days + 719_468
        let era = shifted.floorDiv(146_097)
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        return UTCFields(year: yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month: month,
                         day: dayOfYear - (153 * monthIndex + 2) / 5 + 1,
                         hour: seconds / 3600, minute: seconds / 60 % 60, second: seconds % 60,
                         microsecond: inDay % Self.microsecondsPerSecond)
    }
}

extension Int64 {
    /// Division rounding toward negative infinity (times before 1970 fall on the right day).
    public func floorDiv(_ divisor: Int64) -> Int64 {
        let quotient = self / divisor
        return (self % divisor != 0 && (self < 0) != (divisor < 0)) ? quotient - 1 : quotient
    }
}
