import Foundation
import Sensors
import TestSupport
import Testing
@testable import Trace

/// Every way a trace line can be wrong gets `path:line: reason`.
@Suite struct TraceErrorTests {
    static let header = "hrbridge-trace 1 start=2024-01-01T06:00:00Z"

    struct BadLine: Sendable, CustomTestStringConvertible {
        let line: String
        let reason: String
        var testDescription: String { line }
    }

    @Test(arguments: [
        BadLine(line: "abc connected", reason: "offset 'abc' is not a whole number of microseconds"),
        BadLine(line: "-5 connected", reason: "offset '-5' is not a whole number of microseconds"),
        BadLine(line: "1234567890123456789 connected", reason: "offset '1234567890123456789' is not a whole number of microseconds"),
        BadLine(line: "5", reason: "missing event kind after the offset"),
        BadLine(line: "5 connect", reason: "unknown event kind 'connect' (expected notify, connected, disconnected, battery, location or note)"),
        BadLine(line: "5 notify", reason: "notify needs a characteristic UUID"),
        BadLine(line: "5 notify hr 0648", reason: "'hr' is not a characteristic UUID such as 2a37"),
        BadLine(line: "5 notify 2a37 064", reason: "notification value '064' is not an even run of hex digits"),
        BadLine(line: "5 notify 2a37 06:48", reason: "notification value '06:48' is not an even run of hex digits"),
        BadLine(line: "5 notify 2a37 0648 0649", reason: "unexpected '0649' after the notify event's fields"),
        BadLine(line: "5 notify 2a37 06g8", reason: "notification value '06g8' is not an even run of hex digits"),
        BadLine(line: "1234567890123456789 notify 2a37 0648", reason: "offset '1234567890123456789' is not a whole number of microseconds"),
        BadLine(line: "5 connected now", reason: "unexpected 'now' after the connected event's fields"),
        BadLine(line: "5 battery", reason: "battery needs a percentage 0–100"),
        BadLine(line: "5 battery 101", reason: "battery level: value 101 is above the maximum 100"),
        BadLine(line: "5 battery 300", reason: "battery needs a percentage 0–100"),
        BadLine(line: "5 location chest", reason: "location needs a Body Sensor Location code 0–255"),
        BadLine(line: "5 note 100%", reason: "note has a bad %-escape"),
    ])
    func reportsBadLine(_ bad: BadLine) throws {
        let directory = try TemporaryDirectory()
        let path = try directory.write("bad.trace", "\(Self.header)\n0 connected\n\(bad.line)\n1000 connected\n")
        let reader = try TraceReader(path: path)
        #expect(try reader.next()?.kind == .connected)
        #expect(throws: TraceReadError.malformed(path: path, line: 3, reason: bad.reason)) { try reader.next() }
    }

    /// Version 1 names no sensor: a tagged line there is an unknown kind, as it always was.
    @Test(arguments: [
        (1, "5 distance connected", "unknown event kind 'distance' (expected notify, connected, disconnected, battery, location or note)"),
        (2, "5 distance", "missing event kind after the sensor"),
        (2, "5 distance distance connected", "unknown event kind 'distance' (expected notify, connected, disconnected, battery, location or note)"),
        (1, "5 pause", "unknown event kind 'pause' (expected notify, connected, disconnected, battery, location or note)"),
        (2, "5 pause now", "unexpected 'now' after the pause event's fields"),
        (2, "5 pod connected", "unknown event kind 'pod' (expected notify, connected, disconnected, battery, location or note)"),
    ])
    func sensorTagsBelongToVersionTwo(version: Int, line: String, reason: String) throws {
        let directory = try TemporaryDirectory()
        let path = try directory.write("tag.trace", "hrbridge-trace \(version) start=2024-01-01T06:00:00Z\n\(line)\n")
        let reader = try TraceReader(path: path)
        #expect(throws: TraceReadError.malformed(path: path, line: 2, reason: reason)) { try reader.next() }
    }

    @Test func offsetsMustNotGoBack() throws {
        let directory = try TemporaryDirectory()
        let path = try directory.write("back.trace", "\(Self.header)\n2000 connected\n1000 connected\n")
        let reader = try TraceReader(path: path)
        _ = try reader.next()
        #expect(throws: TraceReadError.malformed(path: path, line: 3, reason: "offset 1000 goes back in time (previous event at 2000)")) {
            try reader.next()
        }
    }

    @Test(arguments: [
        ("", "empty file: no trace header"),
        ("time,bpm\n0,72\n", "not an hrbridge trace: the first line must start with 'hrbridge-trace'"),
        ("hrbridge-trace\n", "missing format version after 'hrbridge-trace'"),
        ("hrbridge-trace 3 start=2024-01-01T06:00:00Z\n", "unsupported trace version 3 (this hrbridge reads versions 1–2)"),
        ("hrbridge-trace 1 name=x\n", "header has no start=… time"),
        ("hrbridge-trace 1 start=yesterday\n", "start 'yesterday' is not an ISO-8601 time such as 2024-05-01T06:30:00.000000Z"),
        ("hrbridge-trace 1 start=2024-01-01T06:00:00Z loose\n", "header field 'loose' is not key=value"),
        ("hrbridge-trace 1 start=2024-01-01T06:00:00Z name=%zz\n", "header field 'name' has a bad %-escape"),
        ("hrbridge-trace 2 start=2024-01-01T06:00:00Z heartRateFrom=grips\n", "heartRateFrom 'grips' is not strap or machine"),
        ("hrbridge-trace 1 start=0000-01-01T00:00:00+00:01\n",
         "start '0000-01-01T00:00:00+00:01' is outside the years 1970–9999 a trace can hold"),
        ("hrbridge-trace 1 start=1969-12-31T23:59:59Z\n", "start '1969-12-31T23:59:59Z' is outside the years 1970–9999 a trace can hold"),
        ("hrbridge-trace 1 start=9999-12-31T23:59:59-00:01\n",
         "start '9999-12-31T23:59:59-00:01' is outside the years 1970–9999 a trace can hold"),
    ])
    func reportsBadHeader(text: String, reason: String) throws {
        let directory = try TemporaryDirectory()
        let path = try directory.write("header.trace", text)
        #expect(throws: TraceReadError.malformed(path: path, line: 1, reason: reason)) { try TraceReader(path: path) }
    }

    @Test func missingFileIsUnreadableNotMalformed() {
        #expect(throws: TraceReadError.unreadable(path: "/nonexistent.trace", reason: "No such file or directory")) {
            try TraceReader(path: "/nonexistent.trace")
        }
    }

    @Test func overlongLineIsRefused() throws {
        let directory = try TemporaryDirectory()
        let long = "5 notify 2a37 " + String(repeating: "00", count: LineReader.maximumLineLength)
        let path = try directory.write("long.trace", "\(Self.header)\n\(long)\n")
        let reader = try TraceReader(path: path)
        #expect(throws: TraceReadError.malformed(path: path, line: 2, reason: "line is longer than 65536 bytes")) {
            try reader.next()
        }
    }

    @Test("random bytes never crash the reader", arguments: 0..<4)
    func randomInputNeverTraps(seed: UInt64) throws {
        var random = SplitMix64(seed: seed)
        let directory = try TemporaryDirectory()
        let alphabet = Array("0123456789abcdef notify2a37connecteddisbatterylocationote%\n\r#".utf8) + [0, 0xFF, 0xC3]
        for round in 0..<300 {
            var bytes = Array("\(Self.header)\n".utf8)
            for _ in 0..<Int(random.next() % 400) {
                bytes.append(random.next() % 10 == 0 ? UInt8(truncatingIfNeeded: random.next()) : alphabet[Int(random.next() % UInt64(alphabet.count))])
            }
            let path = directory.path("fuzz-\(round).trace")
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            let reader = try TraceReader(path: path)
            do {
                while try reader.next() != nil {}
            } catch {
                guard case .malformed(_, let line, _) = error else {
                    Issue.record("unexpected \(error)")
                    continue
                }
                #expect(line >= 2)
            }
        }
    }
}
