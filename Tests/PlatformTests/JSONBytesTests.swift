import Foundation
import Platform
import Testing

/// The hand-written writer against the exact bytes Foundation's JSONEncoder gives (the ActivityKit
/// encoding is defined as JSONEncoder's output). Each row is also checked against JSONEncoder itself,
/// so a table entry cannot be wrong in the same way as the writer.
@Suite struct JSONBytesTests {
    static func encoderText<Value: Encodable>(_ value: Value) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    @Test(arguments: [
        ("", #""""#),
        ("Interval 3 of 8", #""Interval 3 of 8""#),
        ("say \"hi\"", #""say \"hi\"""#),
        ("back\\slash", #""back\\slash""#),
        ("3/8", #""3\/8""#),
        ("\u{08}\u{09}\u{0A}\u{0C}\u{0D}", #""\b\t\n\f\r""#),
        ("\u{00}\u{01}\u{0B}\u{0E}\u{1F}", #""\u0000\u0001\u000b\u000e\u001f""#),
        ("del\u{7F}", "\"del\u{7F}\""), // DEL is not a control character to JSON
        ("Läuft 🏃‍♀️", "\"Läuft 🏃‍♀️\""), // non-ASCII stays raw UTF-8
        ("line\u{2028}sep\u{2029}", "\"line\u{2028}sep\u{2029}\""),
        ("a\u{0}\"/\\\u{1F}é", #""a\u0000\"\/\\\u001fé""#),
    ])
    func stringsAreEscapedLikeJSONEncoder(text: String, expected: String) throws {
        var json = JSONBytes()
        json.string(text)
        #expect(String(decoding: json.bytes, as: UTF8.self) == expected)
        #expect(try Self.encoderText(text) == expected)
    }

    @Test(arguments: [
        (0.0, "0"),
        (-0.0, "-0"),
        (1.0, "1"),
        (-1.5, "-1.5"),
        (0.1, "0.1"),
        (0.0001, "0.0001"),
        (0.00001, "1e-05"),
        (725_781_600, "725781600"),
        (725_781_600.5, "725781600.5"),
        (725_781_600.123457, "725781600.123457"),
        (-978_307_200.000001, "-978307200.000001"),
        (1e15, "1000000000000000"),
        (9_007_199_254_740_991, "9007199254740991"), // 2^53 - 1: the writer's integer path
        (9_007_199_254_740_992, "9007199254740992"), // 2^53: the description path
        (1e16, "1e+16"),
        (123_456_789_012_345_680, "1.2345678901234568e+17"),
        (Double.greatestFiniteMagnitude, "1.7976931348623157e+308"),
        (Double.leastNonzeroMagnitude, "5e-324"),
    ])
    func numbersPrintLikeJSONEncoder(value: Double, expected: String) throws {
        var json = JSONBytes()
        try json.number(value)
        #expect(String(decoding: json.bytes, as: UTF8.self) == expected)
        #expect(try Self.encoderText([value]) == "[\(expected)]")
    }

    @Test(arguments: [Double.nan, .infinity, -.infinity])
    func nonFiniteNumbersAreRefusedLikeJSONEncoderDoes(value: Double) {
        var json = JSONBytes()
        #expect(throws: JSONNumberError.self) { try json.number(value) }
        #expect(throws: EncodingError.self) { try Self.encoderText([value]) }
    }

    @Test(arguments: [0, 7, -1, 65_535, Int.max, Int.min])
    func integersPrintLikeJSONEncoder(value: Int) throws {
        var json = JSONBytes()
        json.integer(value)
        #expect(try "[\(String(decoding: json.bytes, as: UTF8.self))]" == Self.encoderText([value]))
    }

    @Test func objectsSeparateKeysWithCommasAtEveryLevel() throws {
        var json = JSONBytes()
        json.beginObject()
        json.key("a")
        json.integer(1)
        json.key("inner")
        json.beginObject()
        json.key("b")
        json.string("x")
        json.endObject()
        json.key("c")
        json.beginObject()
        json.endObject()
        json.endObject()
        #expect(String(decoding: json.bytes, as: UTF8.self) == #"{"a":1,"inner":{"b":"x"},"c":{}}"#)
    }
}
