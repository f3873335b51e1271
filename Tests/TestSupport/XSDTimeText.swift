/// xsd:dateTime text for the test writers, written independently of the product's parser: a UTC
/// instant shown in any zone offset, or with none.
public enum XSDTimeText {
    /// `microseconds` since the Unix epoch as local time at `offsetMinutes` east of UTC with that
    /// offset (`+02:00`, or `Z` for 0), or, for nil, UTC time without a zone. The fraction has as
    /// many digits as it needs (none, 3 or 6).
    public static func format(microseconds: Int64, offsetMinutes: Int?) -> String {
        let local = microseconds + Int64(offsetMinutes ?? 0) * 60_000_000
        let seconds = local.floorDivided(by: 1_000_000), fraction = local - seconds * 1_000_000
        let days = seconds.floorDivided(by: 86_400), secondOfDay = seconds - days * 86_400
        let (year, month, day) = civil(daysSinceEpoch: days)
        var text = "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))T\(pad(secondOfDay / 3600, 2)):\(pad(secondOfDay / 60 % 60, 2)):\(pad(secondOfDay % 60, 2))"
        if fraction % 1000 != 0 {
            text += ".\(pad(fraction, 6))"
        } else if fraction != 0 {
            text += ".\(pad(fraction / 1000, 3))"
        }
        guard let offsetMinutes else { return text }
        guard offsetMinutes != 0 else { return text + "Z" }
        return text + (offsetMinutes < 0 ? "-" : "+") + "\(pad(Int64(abs(offsetMinutes) / 60), 2)):\(pad(Int64(abs(offsetMinutes) % 60), 2))"
    }

    /// Howard Hinnant's civil_from_days.
    private static func civil(daysSinceEpoch days: Int64) -> (Int64, Int64, Int64) {
        let z = days + 719_468
        let era = z.floorDivided(by: 146_097)
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    private static func pad(_ value: Int64, _ width: Int) -> String {
        let digits = String(value)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
}

extension Int64 {
    fileprivate func floorDivided(by divisor: Int64) -> Int64 {
        let quotient = self / divisor
        return (self % divisor != 0 && (self < 0) != (divisor < 0)) ? quotient - 1 : quotient
    }
}
