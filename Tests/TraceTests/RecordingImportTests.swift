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
        let result = RecordingImport.trace(of: WorkoutRecording(csvHeartRate: rates, rrIntervals: intervals, start: start, source: "run.csv"))
        #expect(result.version == 1)
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

    /// A watch's recording with distance, a sample without heart rate and a timer stop: the strap's
    /// notifications skip the gap, the distance sensor's carry the totals, the stop is a pause.
    @Test func distanceBecomesTheFootPodsAndTheTimerItsPauses() throws {
        let start = RecordingImport.defaultStart
        func at(_ seconds: Int64) -> Timestamp { start.adding(microseconds: seconds * 1_000_000) }
        var recording = WorkoutRecording(start: start, source: "run.fit", device: "fenix 5")
        recording.samples = [
            .init(time: at(0), heartRate: 100, distance: 0, speed: 3, cadence: 170),
            .init(time: at(1), heartRate: nil, distance: 3.04),
            .init(time: at(2), heartRate: 102, speed: 3.5),
            .init(time: at(3), heartRate: 103),
        ]
        recording.pauses = [.init(start: at(2), end: at(3)), .init(start: at(3), end: nil)]
        let result = RecordingImport.trace(of: recording)
        #expect(result.version == 2)
        let lines = result.events.map { event -> String in
            let seconds = (event.time.microsecondsSinceUnixEpoch - start.microsecondsSinceUnixEpoch) / 1_000_000
            let what = switch event.kind {
            case let .notification(uuid, value): "\(uuid) \(Hex.encode(value))"
            default: "\(event.kind)"
            }
            return "\(seconds) \(event.sensor.rawValue) \(what)"
        }
        #expect(lines == [
            #"0 strap note("imported from run.fit (fenix 5)")"#,
            "0 strap connected",
            "0 strap 2a37 0664",
            "0 distance connected",
            "0 distance 2a53 020003aa00000000",   // 3 m/s (0x0300), 170 steps/min, total 0.0 m
            "1 distance 2a53 020000001e000000",   // no speed or cadence in the file: 0; total 3.0 m (3.04 to 0.1 m)
            "2 strap 2a37 0666",
            "2 distance 2a53 00800300",           // 3.5 m/s (0x0380) and no total: the pod's speed alone
            "2 strap paused",
            "3 strap resumed",
            "3 strap 2a37 0667",
            "3 strap paused",
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
        ("0,72\n1,\u{301}73\n", 2, "bpm '\u{301}73' is not a number"), // the comma and the mark are one Character
        // From the default start (2024-01-01T06:00:00Z) a trace reaches to the end of year 9999.
        ("0,72\n6e40,73\n", 2, "t_seconds 6e40 is past the end of year 9999, the last a trace can hold"),
        ("0,72\n1e12,73\n", 2, "t_seconds 1e12 is past the end of year 9999, the last a trace can hold"),
        ("0,72\n251698212000,73\n", 2, "t_seconds 251698212000 is past the end of year 9999, the last a trace can hold"),
    ])
    func reportsBadRows(text: String, line: Int, reason: String) {
        #expect(throws: TraceReadError.malformed(path: "x.csv", line: line, reason: reason)) {
            try CSVRow.parse(text, path: "x.csv", rule: .beatsPerMinute)
        }
    }

    @Test func aRowInTheLastSecondOfYear9999IsKept() throws {
        let rows = try CSVRow.parse("251698211999,72\n", path: "x.csv", rule: .beatsPerMinute)
        let recording = WorkoutRecording(csvHeartRate: rows, start: RecordingImport.defaultStart, source: "x.csv")
        #expect(UTCTimestampText.format(recording.samples[0].time) == "9999-12-31T23:59:59.000000Z")
    }

    @Test func rrIntervalsMustFitTheWireFormat() {
        #expect(throws: TraceReadError.malformed(path: "rr.csv", line: 1, reason: "rr_ms 64000 is outside 1…63999")) {
            try CSVRow.parse("1,64000\n", path: "rr.csv", rule: .rrMilliseconds)
        }
    }
}
