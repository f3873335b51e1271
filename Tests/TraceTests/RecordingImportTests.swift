import Sensors
import Testing
@testable import Trace

@Suite struct RecordingImportTests {
    @Test func groupsRRIntervalsIntoTheNotificationTheyEndIn() throws {
        let rates = [CSVRow(seconds: 0, value: 61), CSVRow(seconds: 1, value: 61), CSVRow(seconds: 4, value: 56.4)]
        let intervals = [
            CSVRow(seconds: 0.9, value: 900), CSVRow(seconds: 1.0, value: 100),
            CSVRow(seconds: 2.2, value: 1200), CSVRow(seconds: 3.3, value: 1100), CSVRow(seconds: 9, value: 1000),
        ]
        let start = RecordingImport.defaultStart
        let result = RecordingImport.events(heartRate: rates, rrIntervals: intervals, start: start, source: "run.csv")
        #expect(result.droppedTrailingIntervals == 1)
        #expect(result.events.first?.kind == .note("imported from run.csv"))
        let measurements = try result.events.compactMap { event -> (Int64, HeartRateMeasurement)? in
            guard case let .notification(uuid, value) = event.kind, uuid == .heartRateMeasurement else { return nil }
            return (event.time.microsecondsSinceUnixEpoch - start.microsecondsSinceUnixEpoch, try HeartRateMeasurement(parsing: value))
        }
        #expect(measurements.map(\.0) == [0, 1_000_000, 4_000_000])
        #expect(measurements.map(\.1) == [
            HeartRateMeasurement(beatsPerMinute: 61, sensorContact: .detected, rrIntervals: []),
            HeartRateMeasurement(beatsPerMinute: 61, sensorContact: .detected, rrIntervals: [922, 102]),
            HeartRateMeasurement(beatsPerMinute: 56, sensorContact: .detected, rrIntervals: [1229, 1126]),
        ])
    }

    @Test func defaultStartIsTheDocumentedInstant() {
        #expect(UTCTimestampText.format(RecordingImport.defaultStart) == "2024-01-01T06:00:00.000000Z")
    }

    @Test func parsesCSVWithHeaderBlankLinesAndCRLF() throws {
        let rows = try CSVRow.parse("t_seconds,bpm\r\n0,72\r\n\r\n1.5, 73 \r\n", path: "x.csv", rule: .beatsPerMinute)
        #expect(rows == [CSVRow(seconds: 0, value: 72), CSVRow(seconds: 1.5, value: 73)])
    }

    @Test(arguments: [
        ("t,bpm\n0,72\n1\n", 3, "expected 2 comma-separated columns (t_seconds,bpm), found 1"),
        ("t,bpm\n0,72\nx,73\n", 3, "t_seconds 'x' is not a number"),
        ("0,72\n1,fast\n", 2, "bpm 'fast' is not a number"),
        ("0,72\n-1,73\n", 2, "t_seconds -1 is negative"),
        ("5,72\n4,73\n", 2, "t_seconds 4 goes back in time (previous row at 5.0)"),
        ("0,72\n1,70000\n", 2, "bpm 70000 is outside 0…65535"),
    ])
    func reportsBadRows(text: String, line: Int, reason: String) {
        #expect(throws: TraceReadError.malformed(path: "x.csv", line: line, reason: reason)) {
            try CSVRow.parse(text, path: "x.csv", rule: .beatsPerMinute)
        }
    }

    @Test func rrIntervalsMustFitTheWireFormat() {
        #expect(throws: TraceReadError.malformed(path: "rr.csv", line: 1, reason: "rr_ms 64000 is outside 1…63999")) {
            try CSVRow.parse("1,64000\n", path: "rr.csv", rule: .rrMilliseconds)
        }
    }
}
