import Sensors
import Testing
@testable import Trace

@Suite struct UTCTimestampTextTests {
    @Test(arguments: [
        ("1970-01-01T00:00:00.000000Z", Int64(0)),
        ("2024-01-01T06:00:00.000000Z", 1_704_088_800_000_000),
        ("2024-02-29T23:59:59.999999Z", 1_709_251_199_999_999),
        ("2000-03-01T00:00:00.000001Z", 951_868_800_000_001),
        ("1969-12-31T23:59:59.500000Z", -500_000),
    ])
    func formatsAndParsesExactly(text: String, micros: Int64) {
        let time = Timestamp(microsecondsSinceUnixEpoch: micros)
        #expect(UTCTimestampText.format(time) == text)
        #expect(UTCTimestampText.parse(text) == time)
    }

    @Test(arguments: [
        ("2024-01-01T06:00:00Z", Int64(1_704_088_800_000_000)),
        ("2024-01-01T06:00:00.5Z", 1_704_088_800_500_000),
        ("2024-01-01T08:00:00+02:00", 1_704_088_800_000_000),
        ("2024-01-01T01:30:00-04:30", 1_704_088_800_000_000),
        ("2024-01-01 06:00:00Z", 1_704_088_800_000_000),
        ("2024-01-01T20:00:00+14:00", 1_704_088_800_000_000),
        ("2023-12-31T16:00:00-14:00", 1_704_088_800_000_000),
    ])
    func acceptsCommonForms(text: String, micros: Int64) {
        #expect(UTCTimestampText.parse(text)?.microsecondsSinceUnixEpoch == micros)
    }

    @Test(arguments: [
        "2024-01-01T06:00:00", "2024-13-01T06:00:00Z", "2023-02-29T06:00:00Z", "2024-01-01T24:00:00Z",
        "2024-01-01T06:00:00.Z", "2024-01-01T06:00:00Zjunk", "yesterday", "",
        "2024-01-01T06:00:00+99:99", "2024-01-01T06:00:00+14:01", "2024-01-01T06:00:00-15:00", "2024-01-01T06:00:00+01:60",
    ])
    func refusesInvalidTimes(text: String) {
        #expect(UTCTimestampText.parse(text) == nil)
    }
}
