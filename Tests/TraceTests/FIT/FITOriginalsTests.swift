import Foundation
import Sensors
import TestSupport
import Testing
@testable import Trace

/// The real FIT files in Tests/Fixtures/recordings/originals, against the CSVs made from the same runs.
@Suite struct FITOriginalsTests {
    static let recordings = RecordingFixtures.directory

    static func bytes(_ name: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: recordings.appendingPathComponent("originals/\(name)")))
    }

    static func recording(_ name: String) throws -> WorkoutRecording {
        try WorkoutRecording(fit: bytes(name), path: name, source: name)
    }

    static func rows(_ name: String, _ rule: CSVRow.ValueRule) throws -> [CSVRow] {
        try CSVRow.parse(String(contentsOf: recordings.appendingPathComponent(name), encoding: .utf8), path: name, rule: rule)
    }

    /// (seconds since the recording's start, bpm) of each sample, as the CSV has them.
    static func rates(_ recording: WorkoutRecording) -> [CSVRow] {
        recording.samples.map { CSVRow(seconds: $0.time.seconds(since: recording.start), value: Double($0.heartRate ?? -1)) }
    }

    static func at(_ seconds: Double, after start: Timestamp) -> Timestamp { start.adding(seconds: seconds) }

    @Test func theTreadmillRunIsItsCSVWithDistance() throws {
        let recording = try Self.recording("pri_treadmill_12km.fit")
        #expect(Self.rates(recording) == (try Self.rows("pri_treadmill_12km.hr.csv", .beatsPerMinute)))
        #expect(recording.samples.count == 3_862)
        #expect(recording.samples.allSatisfy { $0.distance != nil && $0.speed != nil && $0.cadence != nil })
        #expect(recording.samples.last?.distance == 12_011.70)
        // The session says running: 76 strides a minute are 152 steps; enhanced speed 2.555 m/s.
        #expect(recording.samples[0].cadence == 152)
        #expect(recording.samples[0].speed == 2.555)
        #expect(UTCTimestampText.format(recording.start) == "2026-03-04T18:07:55.000000Z")
        // Polar's file stops the timer 1 s before its last record, and never starts it again.
        #expect(recording.pauses == [.init(start: Self.at(3_860, after: recording.start), end: nil)])
        #expect(recording.device == "manufacturer 123 product 0")
        #expect(recording.beats.isEmpty)
        #expect(recording.tolerated == ["messages hrbridge does not read": 2]) // lap, activity
    }

    /// The RR intervals are the CSV's to the microsecond: in this file every hrv message comes
    /// after the record whose second its first beat falls in, so the chain from the start never
    /// falls behind a record and no beat is moved (see `RRBeatChain`).
    @Test func theFenixRunIsItsCSVsWithRRIntervals() throws {
        let recording = try Self.recording("ap_garmin_fenix_5_run.fit")
        #expect(Self.rates(recording) == (try Self.rows("ap_garmin_fenix_5_run.hr.csv", .beatsPerMinute)))
        let intervals = try Self.rows("ap_garmin_fenix_5_run.rr.csv", .rrMilliseconds)
        #expect(recording.beats.count == 113)
        #expect(recording.beats == intervals.map { .init(time: Self.at($0.seconds, after: recording.start), milliseconds: $0.value) })
        #expect(recording.pauses == [.init(start: Self.at(57, after: recording.start), end: nil)]) // stop_all
        #expect(recording.samples[3].cadence == 156) // t = 4 s: 78 strides a minute
        #expect(recording.device == "manufacturer 1 product 2697")
        #expect(recording.tolerated == [
            "invalid values (absent, not zero)": 242, // the hrv messages' unused slots
            "messages hrbridge does not read": 24,
            "record fields hrbridge does not read": 294, // position, altitude, temperature, …
        ])
    }

    /// The FIT SDK's developer-data example: big endian, a developer field in every record, read
    /// around and counted. Its records carry no time at all (no timestamp field, no compressed
    /// header), so an import refuses it: there is no instant to give a sample.
    @Test func developerFieldsAreSkippedAndCounted() throws {
        let bytes = try Self.bytes("ap_developer_data.fit")
        var records: [[UInt8: Int64]] = []
        var globals: [UInt16] = []
        let skipped = try FITDecoder(bytes: bytes).decode { message in
            globals.append(message.globalNumber)
            guard message.globalNumber == FITProfile.Message.record else { return }
            records.append(Dictionary(uniqueKeysWithValues: message.fields.compactMap { field in field.integer().map { (field.number, $0) } }))
            #expect(message.time == nil)
        }
        #expect(globals == [0, 207, 206, 20, 20, 20])
        #expect(records == [
            [3: 140, 4: 88, 5: 51_000, 6: 47_488],
            [3: 143, 4: 90, 5: 208_000, 6: 36_416],
            [3: 144, 4: 92, 5: 371_000, 6: 35_344],
        ])
        #expect(skipped[.developerFields] == 3)
        #expect(skipped[.unreadableFields, default: 0] == 0)
        #expect(throws: ImportError(path: "ap_developer_data.fit", location: "byte 146",
                                    reason: "record without a time (no timestamp field 253, no compressed timestamp header)")) {
            try Self.recording("ap_developer_data.fit")
        }
    }
}
