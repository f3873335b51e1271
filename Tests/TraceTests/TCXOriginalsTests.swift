import Foundation
import Sensors
import TestSupport
import Testing
@testable import Trace

/// Every real TCX file in Tests/Fixtures/recordings/originals: what it imports to, or the error it is
/// refused with, as docs/commands.md documents.
@Suite struct TCXOriginalsTests {
    static func read(_ name: String, activity: Int = 1) throws(ImportError) -> TCXFile {
        let path = RecordingFixtures.original(name)
        let bytes = FileManager.default.contents(atPath: path).map { [UInt8]($0) } ?? []
        return try TCXFile.read(XMLByteStream(bytes: bytes), path: path, activity: activity)
    }

    static func at(_ text: String) -> Timestamp { UTCTimestampText.parse(text)! }

    static let watts = "Trackpoint extension Watts (http://www.garmin.com/xmlschemas/ActivityExtension/v2) not read"

    /// The run behind tcxparser_fr410.hr.csv: every heart-rate sample at the CSV's offset with its
    /// bpm; the one Trackpoint without a heart rate (the last, a Time alone) is a gap.
    @Test func fr410HeartRateIsTheCSVsEverySample() throws {
        let recording = try #require(try Self.read("tcxparser_fr410.tcx").recording)
        let csv = try String(contentsOfFile: RecordingFixtures.path("tcxparser_fr410.hr.csv"), encoding: .utf8)
        let rows = try CSVRow.parse(csv, path: "tcxparser_fr410.hr.csv", rule: .beatsPerMinute)
        let rated = recording.samples.filter { $0.heartRate != nil }
        #expect(rows.count == 383)
        #expect(rated.map { $0.time.seconds(since: recording.start) } == rows.map(\.seconds))
        #expect(rated.map(\.heartRate) == rows.map { Int($0.value) })
        #expect(recording.samples.count == 384)
        #expect(recording.start == Self.at("2012-12-26T21:29:53Z"))
        #expect(recording.device == "Forerunner 410 Software Version 2.20")
        #expect(recording.tolerated == ["Trackpoint without a heart rate (a gap)": 1])
        #expect(recording.samples.compactMap(\.distance).last == 4686.31103516)
        #expect(recording.pauses.isEmpty)
    }

    @Test func lapExtensionsWithANamespaceResetButNoTrackpointAreRefused() {
        #expect(throws: ImportError(path: RecordingFixtures.original("ap_lx_namespace_reset.tcx"), location: "line 7",
                                    reason: "activity 1 has no Trackpoint with a time: nothing to replay")) {
            try Self.read("ap_lx_namespace_reset.tcx")
        }
    }

    /// -08:00 and -07:00 are read exactly (09:59:59Z, 10:00:00Z); the third time has no zone, is read
    /// as UTC (04:00Z) and so goes back.
    @Test func mixedOffsetsAreExactAndAZonelessTimeGoingBackIsRefused() {
        #expect(throws: ImportError(path: RecordingFixtures.original("ap_mixed_offset.tcx"), location: "line 33",
                                    reason: "Trackpoint at 2026-03-08T04:00:00.000000Z is earlier than the one before it (line 24, 2026-03-08T10:00:00.000000Z)")) {
            try Self.read("ap_mixed_offset.tcx")
        }
    }

    @Test func severalActivitiesAreListedAndOneIsChosen() throws {
        let first = try Self.read("ap_multi_activity.tcx")
        #expect(first.activities == [
            TCXActivitySummary(sport: "Biking", id: "2026-01-05T08:00:00Z", points: 1),
            TCXActivitySummary(sport: "Running", id: "2026-01-05T09:00:00Z", points: 1),
        ])
        #expect(first.recording?.samples == [.init(time: Self.at("2026-01-05T08:00:00Z"), heartRate: 100)])
        let second = try Self.read("ap_multi_activity.tcx", activity: 2)
        #expect(second.recording?.samples == [.init(time: Self.at("2026-01-05T09:00:00Z"), heartRate: 140)])
        #expect(try Self.read("ap_multi_activity.tcx", activity: 3).recording == nil)
    }

    @Test func trackpointsWithoutPositionKeepTheirHeartRate() throws {
        let recording = try #require(try Self.read("ap_no_position.tcx").recording)
        #expect(recording.samples.map(\.heartRate) == [100, 101, 102])
        #expect(recording.samples.allSatisfy { $0.distance == nil })
        #expect(recording.tolerated == [Self.watts: 3])
    }

    /// TCX requires a Time on every Trackpoint: one without is an error at its line.
    @Test func aTrackpointWithoutATimeIsRefused() {
        #expect(throws: ImportError(path: RecordingFixtures.original("ap_no_time.tcx"), location: "line 22",
                                    reason: "Trackpoint without a Time: TCX requires one, and a point cannot be placed without it")) {
            try Self.read("ap_no_time.tcx")
        }
    }

    /// TPX Speed and RunCadence (one foot's strides: doubled to steps) under a TPX with an attribute.
    @Test func runningExtensionsGiveSpeedAndSteps() throws {
        let recording = try #require(try Self.read("ap_running.tcx").recording)
        #expect(recording.samples == [
            .init(time: Self.at("2026-01-05T08:00:00Z"), heartRate: 140, speed: 3, cadence: 170),
            .init(time: Self.at("2026-01-05T08:00:01Z"), heartRate: 141, speed: 3, cadence: 172),
        ])
        #expect(recording.tolerated == [Self.watts: 2])
    }

    /// Two laps in one activity; the Trackpoint repeating a time is left out, the first kept.
    @Test func lapsJoinAndARepeatedTimeKeepsTheFirst() throws {
        let recording = try #require(try Self.read("ap_sample.tcx").recording)
        let expected = (0..<5).map { (second: Int) -> WorkoutRecording.Sample in
            WorkoutRecording.Sample(time: Self.at("2026-01-05T08:00:0\(second)Z"), heartRate: 100 + second,
                                    distance: Double(10 * second), speed: 10, cadence: 80 + second)
        }
        #expect(recording.samples == expected)
        #expect(recording.tolerated == ["Trackpoint at the same time as the one before (the first kept)": 1, Self.watts: 5])
    }

    /// Distance and cadence, but no heart rate in any Trackpoint: nothing a replay would show.
    @Test func anActivityWithoutHeartRateIsRefused() {
        #expect(throws: ImportError(path: RecordingFixtures.original("ap_zero_samples.tcx"), location: "line 6",
                                    reason: "no Trackpoint in activity 1 has a heart rate: a replay would show nothing (it starts from the strap)")) {
            try Self.read("ap_zero_samples.tcx")
        }
    }
}
