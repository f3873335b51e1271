import Testing
@testable import Config

@Suite struct JSONParserTests {
    private func parse(_ text: String) throws(JSONSyntaxError) -> JSONValue {
        try JSONParser.parse(Array(text.utf8))
    }

    @Test func keepsOrderNumbersAndKinds() throws {
        let value = try parse(#"{"b": 1, "a": [true, null, 2.50, -0, 1e3, "x\u00e9\ud83d\ude00\n"]}"#)
        #expect(value == .object([
            .init("b", .number("1")),
            .init("a", .array([.bool(true), .null, .number("2.50"), .number("-0"), .number("1e3"), .string("xé😀\n")])),
        ]))
    }

    @Test func acceptsEmptyContainersAndWhitespace() throws {
        #expect(try parse(" \r\n\t{ \"a\" : [ ] , \"b\" : { } }\n") == .object([.init("a", .array([])), .init("b", .object([]))]))
    }

    @Test(arguments: [
        ("", 1, 1, "unexpected end of file, expected a value"),
        ("{\"a\": 1,}", 1, 9, "trailing comma before '}'"),
        ("[1, 2,]", 1, 7, "trailing comma before ']'"),
        ("{\n  \"a\": 1,\n  \"a\": 2\n}", 3, 3, "duplicate key \"a\""),
        ("{\"a\" 1}", 1, 6, "expected ':' after the key"),
        ("{\"a\": 1 \"b\": 2}", 1, 9, "expected ',' or '}' after a member"),
        ("[1 2]", 1, 4, "expected ',' or ']' after an element"),
        ("{a: 1}", 1, 2, "expected a quoted key"),
        ("// note\n{}", 1, 1, "comments are not JSON"),
        ("{\"a\": 01}", 1, 7, "numbers may not start with 0"),
        ("{\"a\": 1.}", 1, 9, "expected a digit after '.'"),
        ("{\"a\": 1e}", 1, 9, "expected a digit in the exponent"),
        ("{\"a\": -}", 1, 8, "expected a digit"),
        ("{\"a\": tru}", 1, 7, "unexpected word, expected true"),
        ("{\"a\": 'x'}", 1, 7, "unexpected character ''', expected a value"),
        ("\"abc", 1, 5, "unterminated string"),
        ("\"a\tb\"", 1, 3, "control character 0x9 in a string (write it as an escape)"),
        ("\"\\x\"", 1, 3, "unknown escape \\'x'"),
        ("\"\\u12\"", 1, 4, "\\u needs four hex digits"),
        ("\"\\u+041\"", 1, 4, "\\u needs four hex digits"),
        ("\"\\u-000\"", 1, 4, "\\u needs four hex digits"),
        ("{\"\u{E9}\": 1, \"\\u00e9\": 2}", 1, 11, "duplicate key \"\u{E9}\""),
        ("\"\\ud83d\"", 1, 8, "lone UTF-16 surrogate in \\u escape"),
        ("{} {}", 1, 4, "unexpected text after the top-level value"),
    ])
    func syntaxErrorsNameLineAndColumn(text: String, line: Int, column: Int, reason: String) {
        #expect(throws: JSONSyntaxError(line: line, column: column, reason: reason)) { try parse(text) }
    }

    /// RFC 8259 compares keys by code points: "é" and "e" + U+0301 look alike (String's == calls them
    /// equal) but are two keys.
    @Test func keysThatOnlyLookAlikeAreTwoKeys() throws {
        guard case let .object(members) = try parse(#"{"\#u{E9}": 1, "e\u0301": 2}"#) else { Issue.record("not an object"); return }
        #expect(members.map { Array($0.key.unicodeScalars) } == [["\u{E9}"], ["e", "\u{301}"]])
    }

    @Test func refusesInvalidUTF8() {
        #expect(throws: JSONSyntaxError(line: 1, column: 1, reason: "string is not valid UTF-8")) {
            try JSONParser.parse([UInt8(ascii: "\""), 0xC3, 0x28, UInt8(ascii: "\"")])
        }
    }

    @Test func refusesHostileNestingWithoutCrashing() {
        let deep = String(repeating: "[", count: 100_000)
        #expect(throws: JSONSyntaxError(line: 1, column: JSONParser.maximumDepth + 1, reason: "nested deeper than 64 levels")) {
            try parse(deep)
        }
    }

    @Test func writerRoundTripsThroughParser() throws {
        let value = JSONValue.object([
            .init("quote\"and\\slash", .string("line\nbreak\u{1}")),
            .init("list", .array([.number("1"), .number("2")])),
            .init("nested", .array([.object([.init("x", .bool(false))])])),
            .init("empty", .object([])),
        ])
        #expect(try parse(JSONWriter.pretty(value)) == value)
    }
}
