import Foundation
import Sensors
import TestSupport
import Testing
@testable import Trace

/// Every real GPX file in Tests/Fixtures/recordings/originals: what it imports to, or the error it is
/// refused with, as docs/commands.md documents.
@Suite struct GPXOriginalsTests {
    static func read(_ name: String) throws(ImportError) -> GPXFile {
        let path = RecordingFixtures.original(name)
        let bytes = FileManager.default.contents(atPath: path).map { [UInt8]($0) } ?? []
        return try GPXFile.read(XMLByteStream(bytes: bytes), path: path)
    }

    static func at(_ text: String) -> Timestamp { UTCTimestampText.parse(text)! }

    /// Metres from 37.0000, -122.0000 to each point `steps` × 0.0001° further north and west.
    static func along(_ steps: Int) -> Double {
        (0..<steps).reduce(0.0) { total, step in
            let from = (latitude: 37 + 0.0001 * Double(step), longitude: -122 - 0.0001 * Double(step))
            return total + ChordDistance.meters(from: from, to: (latitude: from.latitude + 0.0001, longitude: from.longitude - 0.0001))
        }
    }

    static func notRead(_ local: String, _ namespace: String) -> String { "trkpt extension \(local) (\(namespace)) not read" }

    /// TrackPointExtension v1: the same hr and cad as v2 under another namespace; atemp, wtemp and
    /// depth are not read.
    @Test func trackPointExtensionV1GivesHeartRateAndCadence() throws {
        let recording = try Self.read("ap_gpxtpx_v1.gpx").recording
        #expect(recording.samples.map(\.time) == [Self.at("2026-01-05T08:00:00Z"), Self.at("2026-01-05T08:00:01Z")])
        #expect(recording.samples.map(\.heartRate) == [100, 101])
        #expect(recording.samples.map(\.cadence) == [80, 81])
        #expect(recording.samples.map(\.speed) == [nil, nil])
        #expect(recording.samples[0].distance == 0)
        #expect(abs(recording.samples[1].distance! - Self.along(1)) < 1e-6)
        #expect(abs(Self.along(1) - 14.23) < 0.01)
        let v1 = "http://www.garmin.com/xmlschemas/TrackPointExtension/v1"
        #expect(recording.tolerated == [Self.notRead("atemp", v1): 2, Self.notRead("wtemp", v1): 2, Self.notRead("depth", v1): 2])
    }

    /// -08:00 and -07:00 are read exactly; the third time has no zone, is read as UTC and so goes back.
    @Test func aZonelessTimeGoingBackIsRefused() {
        #expect(throws: ImportError(path: RecordingFixtures.original("ap_mixed_offset.gpx"), location: "line 29",
                                    reason: "trkpt at 2026-03-08T04:00:00.000000Z is earlier than the one before it (line 19, 2026-03-08T10:00:00.000000Z)")) {
            try Self.read("ap_mixed_offset.gpx")
        }
    }

    /// Two segments of positions and times, but no heart rate: nothing a replay would show.
    @Test func segmentsWithoutHeartRateAreRefused() {
        #expect(throws: ImportError(path: RecordingFixtures.original("ap_multi_segment.gpx"), location: "line 2",
                                    reason: "no trkpt in the file has a heart rate: a replay would show nothing (it starts from the strap)")) {
            try Self.read("ap_multi_segment.gpx")
        }
    }

    /// GPX times are optional: the two points without one are left out, their positions still
    /// on the way, so the second sample is three legs from the first.
    @Test func pointsWithoutATimeAreLeftOutButTheirDistanceCounts() throws {
        let recording = try Self.read("ap_no_time.gpx").recording
        #expect(recording.samples.map(\.heartRate) == [100, 101])
        #expect(recording.samples.map(\.time) == [Self.at("2026-01-05T08:00:00Z"), Self.at("2026-01-05T08:00:01Z")])
        #expect(abs(recording.samples[1].distance! - Self.along(3)) < 1e-6)
        #expect(recording.tolerated == ["trkpt without a time (left out; its position still counts toward the distance)": 2])
    }

    /// hr, cad and v2's speed; the repeated time keeps the first point; power (in GPX's own
    /// namespace, which defines no such element) and atemp are not read.
    @Test func sampleGivesHeartRateCadenceAndSpeed() throws {
        let recording = try Self.read("ap_sample.gpx").recording
        #expect(recording.samples.map(\.heartRate) == [100, 101, 102])
        #expect(recording.samples.map(\.cadence) == [80, 81, 82])
        #expect(recording.samples.map(\.speed) == [5.0, 5.2, 5.4])
        #expect(abs(recording.samples[2].distance! - Self.along(2)) < 1e-6)
        #expect(recording.pauses.isEmpty)
        #expect(recording.tolerated == [
            "trkpt at the same time as the one before (the first kept)": 1,
            Self.notRead("atemp", "http://www.garmin.com/xmlschemas/TrackPointExtension/v2"): 3,
            Self.notRead("power", "http://www.topografix.com/GPX/1/1"): 3,
        ])
    }

    /// A vendor's extension is skipped, but with it the points have no heart rate at all.
    @Test func unknownExtensionWithoutHeartRateIsRefused() {
        #expect(throws: ImportError(path: RecordingFixtures.original("ap_unknown_extension.gpx"), location: "line 4",
                                    reason: "no trkpt in the file has a heart rate: a replay would show nothing (it starts from the strap)")) {
            try Self.read("ap_unknown_extension.gpx")
        }
    }
}
