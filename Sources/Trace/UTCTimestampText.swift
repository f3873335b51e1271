import Sensors

/// ISO-8601 UTC text with microseconds (`2024-05-01T06:30:00.000000Z`), written and read by hand
/// because Foundation's ISO8601DateFormatter stops at milliseconds and we promise exact replays.
public enum UTCTimestampText {
    /// The times a trace can hold: years 1970–9999. `format` writes four year digits and no sign,
    /// and a trace's times are offsets that never go back from a start at or after the Unix epoch.
    public static let writableRange = Timestamp(microsecondsSinceUnixEpoch: 0)
        ... Timestamp(microsecondsSinceUnixEpoch: 253_402_300_799_999_999) // 9999-12-31T23:59:59.999999Z
    public static let writableYears = "1970–9999"

    public static func format(_ time: Timestamp) -> String {
        var bytes: [UInt8] = []
        append(time, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends the text form to a byte buffer without building a String (the replay hot path).
    public static func append(_ time: Timestamp, to bytes: inout [UInt8]) {
        let fields = time.utcFields
        func digits(_ value: Int64, _ width: Int, then separator: UInt8?) {
            var divisor: Int64 = 1
            for _ in 1..<width { divisor *= 10 }
            while divisor > 0 {
                bytes.append(UInt8(ascii: "0") + UInt8(value / divisor % 10))
                divisor /= 10
            }
            if let separator { bytes.append(separator) }
        }
        digits(fields.year, 4, then: UInt8(ascii: "-"))
        digits(fields.month, 2, then: UInt8(ascii: "-"))
        digits(fields.day, 2, then: UInt8(ascii: "T"))
        digits(fields.hour, 2, then: UInt8(ascii: ":"))
        digits(fields.minute, 2, then: UInt8(ascii: ":"))
        digits(fields.second, 2, then: UInt8(ascii: "."))
        digits(fields.microsecond, 6, then: UInt8(ascii: "Z"))
    }

    /// Reads `YYYY-MM-DDTHH:MM:SS[.f…]` followed by `Z` or `±HH:MM`.
    public static func parse(_ text: String) -> Timestamp? {
        let bytes = Array(text.utf8)
        guard bytes.count >= 20 else { return nil }
        func number(_ range: Range<Int>) -> Int64? {
            var value: Int64 = 0
            for index in range {
                guard index < bytes.count, let digit = decimalDigit(bytes[index]) else { return nil }
                value = value * 10 + digit
            }
            return value
        }
        guard bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
              bytes[10] == UInt8(ascii: "T") || bytes[10] == UInt8(ascii: " "),
              bytes[13] == UInt8(ascii: ":"), bytes[16] == UInt8(ascii: ":"),
              let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
              let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19),
              (1...12).contains(month), (1...daysIn(month: month, year: year)).contains(day),
              hour < 24, minute < 60, second < 60
        else { return nil }

        var index = 19
        var micros: Int64 = 0
        if bytes[index] == UInt8(ascii: ".") {
            index += 1
            var scale: Int64 = 100_000
            let fractionStart = index
            while index < bytes.count, let digit = decimalDigit(bytes[index]) {
                micros += digit * scale
                scale /= 10
                index += 1
            }
            guard index > fractionStart else { return nil }
        }
        var offsetSeconds: Int64 = 0
        guard index < bytes.count else { return nil }
        switch bytes[index] {
        case UInt8(ascii: "Z"):
            index += 1
        case UInt8(ascii: "+"), UInt8(ascii: "-"):
            guard bytes.count == index + 6, bytes[index + 3] == UInt8(ascii: ":"),
                  let offsetHours = number(index + 1..<index + 3), let offsetMinutes = number(index + 4..<index + 6),
                  // Zones in use run from −12:00 to +14:00; beyond ±14:00 an offset is a typo, not a place.
                  offsetMinutes < 60, offsetHours * 60 + offsetMinutes <= 14 * 60
            else { return nil }
            offsetSeconds = (offsetHours * 3600 + offsetMinutes * 60) * (bytes[index] == UInt8(ascii: "-") ? -1 : 1)
            index += 6
        default:
            return nil
        }
        guard index == bytes.count else { return nil }
        let days = daysSinceEpoch(year: year, month: month, day: day)
        let seconds = days * 86_400 + hour * 3600 + minute * 60 + second - offsetSeconds
        return Timestamp(microsecondsSinceUnixEpoch: seconds * Timestamp.microsecondsPerSecond + micros)
    }

    // Howard Hinnant's days_from_civil, for the proleptic Gregorian calendar (the other way: Timestamp.utcFields).
    static func daysSinceEpoch(year: Int64, month: Int64, day: Int64) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = y.floorDiv(400)
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    private static func daysIn(month: Int64, year: Int64) -> Int64 {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

}

@inline(__always)
func decimalDigit(_ ascii: UInt8) -> Int64? {
    ascii >= UInt8(ascii: "0") && ascii <= UInt8(ascii: "9") ? Int64(ascii &- UInt8(ascii: "0")) : nil
}
