import Sensors
import Testing

/// Calendar fields by arithmetic, checked against dates worked out by hand.
@Suite struct UTCFieldsTests {
    static let cases: [(micros: Int64, fields: [Int64])] = [
        (0, [1970, 1, 1, 0, 0, 0, 0]),
        (951_782_400_000_001, [2000, 2, 29, 0, 0, 0, 1]),
        (1_714_545_045_123_456, [2024, 5, 1, 6, 30, 45, 123_456]),
        (-1, [1969, 12, 31, 23, 59, 59, 999_999]),
    ]

    @Test(arguments: cases)
    func fieldsOf(_ micros: Int64, expected: [Int64]) {
        let fields = Timestamp(microsecondsSinceUnixEpoch: micros).utcFields
        #expect([fields.year, fields.month, fields.day, fields.hour, fields.minute, fields.second, fields.microsecond] == expected)
    }
}
