import Sensors
import Testing
@testable import Trace

/// Times and numbers as TCX and GPX write them.
@Suite struct XSDValueTests {
    @Test(arguments: [
        ("2026-03-08T01:59:59-08:00", "2026-03-08T09:59:59.000000Z"),
        ("2026-03-08T03:00:00-07:00", "2026-03-08T10:00:00.000000Z"),
        ("2024-05-01T08:30:00.25+02:00", "2024-05-01T06:30:00.250000Z"),
        ("2012-12-26T21:29:53Z", "2012-12-26T21:29:53.000000Z"),
        ("2012-12-26T21:29:53.123456Z", "2012-12-26T21:29:53.123456Z"),
        ("\n  2012-12-26T21:29:53Z ", "2012-12-26T21:29:53.000000Z"),
        // no zone: UTC, as GPX 1.1 says and Garmin writes
        ("2026-03-08T04:00:00", "2026-03-08T04:00:00.000000Z"),
        ("2026-03-08T04:00:00.5", "2026-03-08T04:00:00.500000Z"),
    ])
    func readsDateTimesExactly(text: String, utc: String) {
        #expect(XSDValue.dateTime(text).map(UTCTimestampText.format) == utc)
    }

    @Test(arguments: ["", "2026-03-08", "2026-03-08T04:00", "2026-03-08T04:00:00+02", "2026-03-08T04:00:00ZZ", "yesterday"])
    func refusesWhatIsNoDateTime(text: String) {
        #expect(XSDValue.dateTime(text) == nil)
    }

    @Test(arguments: [("4630.37792969", 4630.37792969), (" 62\n", 62), ("-1.5e2", -150), ("+3", 3), ("0.0", 0)])
    func readsDecimalNumbers(text: String, value: Double) {
        #expect(XSDValue.number(text) == value)
    }

    /// Swift's parser alone would take the hexadecimal, NaN and infinity forms.
    @Test(arguments: ["", "0x1p3", "nan", "NaN", "inf", "INF", "1e999", "1,5", "12 3", "abc"])
    func refusesWhatIsNoDecimalNumber(text: String) {
        #expect(XSDValue.number(text) == nil)
    }
}
