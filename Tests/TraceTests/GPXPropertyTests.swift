import Sensors
import TestSupport
import Testing
@testable import Trace

/// Random valid GPX files (several tracks and segments, points without a time or a position,
/// prefixes and extension versions that vary, zone offsets) must import to exactly the points
/// written, with the distance along each segment and a pause between segments.
@Suite struct GPXPropertyTests {
    @Test(arguments: 0..<300)
    func importReproducesTheWrittenPoints(seed: UInt64) throws {
        var style = RandomXMLStyle(seed: seed)
        let tracks = Self.tracks(&style.random)
        let version2 = style.random.chance(0.5)
        let document = GPXWriter.document(tracks, version2: version2, style: &style)

        let file = try GPXFile.read(XMLByteStream(bytes: Array(document.utf8)), path: "random.gpx")

        let (samples, pauses) = Self.expected(tracks, version2: version2)
        let recording = file.recording
        #expect(file.tracks == tracks.count)
        #expect(recording.samples.count == samples.count)
        for (read, written) in zip(recording.samples, samples) {
            #expect(read.time == written.time && read.heartRate == written.heartRate && read.cadence == written.cadence
                    && read.speed == written.speed, "\(document)")
            #expect(abs((read.distance ?? -1) - (written.distance ?? -1)) < 1e-6)
        }
        #expect(recording.pauses == pauses)
        let points = tracks.flatMap { $0.flatMap { $0 } }
        #expect(recording.tolerated["trkpt without a time (left out; its position still counts toward the distance)"]
                == points.filter { $0.time == nil }.nilIfEmptyCount)
    }

    /// What the import must give: a sample per point with a time; the distance summed over each
    /// segment's consecutive positions (from the first position on), none across a segment's gap;
    /// a pause from a segment's last time to the next one's first.
    static func expected(_ tracks: [[[WrittenPoint]]], version2: Bool) -> ([WorkoutRecording.Sample], [WorkoutRecording.Pause]) {
        var samples: [WorkoutRecording.Sample] = [], pauses: [WorkoutRecording.Pause] = []
        var total: Double?
        for segment in tracks.flatMap({ $0 }) {
            var last: (latitude: Double, longitude: Double)?
            var pauseStart = samples.last?.time
            for point in segment {
                if let position = point.position {
                    total = (total ?? 0) + (last.map { ChordDistance.meters(from: $0, to: position) } ?? 0)
                    last = position
                }
                guard let microseconds = point.time else { continue }
                let time = Timestamp(microsecondsSinceUnixEpoch: microseconds)
                if let start = pauseStart {
                    pauses.append(WorkoutRecording.Pause(start: start, end: time))
                    pauseStart = nil
                }
                samples.append(WorkoutRecording.Sample(time: time, heartRate: point.heartRate, distance: total,
                                                       speed: version2 ? point.speed : nil, cadence: point.cadence))
            }
        }
        return (samples, pauses)
    }

    /// Tracks of segments of points along a random walk, times increasing with gaps between
    /// segments, at least one heart rate.
    static func tracks(_ random: inout SplitMix64) -> [[[WrittenPoint]]] {
        var time = 1_767_600_000_000_000 + Int64(random.below(1_000_000_000)) * 1000
        var position = (latitude: Double(random.below(120_000)) / 1000 - 60, longitude: Double(random.below(340_000)) / 1000 - 170)
        var tracks = (0...random.below(2)).map { _ in
            (0...random.below(3)).map { _ in
                time += Int64(1 + random.below(600)) * 1_000_000 // the gap before a segment
                return (0..<random.below(9)).map { _ -> WrittenPoint in
                    time += Int64(1 + random.below(5)) * 1_000_000 + [0, Int64(random.below(1000)) * 1000, Int64(random.below(1_000_000))][Int(random.below(3))]
                    position.latitude += (Double(random.below(1001)) - 500) / 1_000_000
                    position.longitude += (Double(random.below(1001)) - 500) / 1_000_000
                    return WrittenPoint(
                        time: random.chance(0.9) ? time : nil,
                        heartRate: random.chance(0.85) ? 40 + Int(random.below(180)) : nil,
                        speed: random.chance(0.5) ? Double(random.below(15_000)) / 1000 : nil,
                        cadence: random.chance(0.5) ? Int(random.below(255)) : nil,
                        position: random.chance(0.95) ? position : nil
                    )
                }
            }
        }
        if !tracks.contains(where: { $0.contains { $0.contains { $0.time != nil && $0.heartRate != nil } } }) {
            time += 1_000_000
            tracks[tracks.count - 1].append([WrittenPoint(time: time, heartRate: 100, position: position)])
        }
        return tracks
    }
}
