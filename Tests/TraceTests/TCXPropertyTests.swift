import Sensors
import TestSupport
import Testing
@testable import Trace

/// Random valid TCX files (several activities, laps and tracks; prefixes that change, zone offsets,
/// extensions read and not) must import to exactly the points written.
@Suite struct TCXPropertyTests {
    @Test(arguments: 0..<300)
    func importReproducesTheWrittenPoints(seed: UInt64) throws {
        var style = RandomXMLStyle(seed: seed)
        let activities = (0...style.random.below(3)).map { _ in Self.activity(&style.random) }
        let wanted = Int(style.random.below(UInt64(activities.count))) + 1
        let document = TCXWriter.document(activities, style: &style)

        let file = try TCXFile.read(XMLByteStream(bytes: Array(document.utf8)), path: "random.tcx", activity: wanted)

        let points = activities[wanted - 1].laps.flatMap { $0.flatMap { $0 } }
        let expected = points.map { point in
            WorkoutRecording.Sample(time: Timestamp(microsecondsSinceUnixEpoch: point.time!), heartRate: point.heartRate,
                                    distance: point.distance, speed: point.speed, cadence: point.cadence ?? point.runCadence.map { 2 * $0 })
        }
        let recording = try #require(file.recording)
        #expect(recording.samples == expected, "\(document)")
        #expect(recording.start == expected.first?.time)
        #expect(recording.device == activities[wanted - 1].creator)
        #expect(recording.tolerated["Trackpoint without a heart rate (a gap)"] == points.filter { $0.heartRate == nil }.nilIfEmptyCount)
        #expect(file.activities.map(\.points) == activities.map { $0.laps.flatMap { $0.flatMap { $0 } }.count })
        #expect(file.activities.map(\.sport) == activities.map(\.sport))
    }

    /// Laps of tracks of points at increasing times, with at least one heart rate.
    static func activity(_ random: inout SplitMix64) -> TCXWriter.Activity {
        var time = 1_356_557_393_000_000 + Int64(random.below(1_000_000_000)) * 1000
        var distance = 0.0
        var laps = (0...random.below(3)).map { _ in
            (0...random.below(2)).map { _ in
                (0..<random.below(8)).map { _ -> WrittenPoint in
                    // Whole seconds, milliseconds or microseconds apart, as devices write them.
                    time += Int64(1 + random.below(9)) * 1_000_000 + [0, Int64(random.below(1000)) * 1000, Int64(random.below(1_000_000))][Int(random.below(3))]
                    distance += Double(random.below(50_000)) / 1000
                    return WrittenPoint(
                        time: time,
                        heartRate: random.chance(0.9) ? 40 + Int(random.below(180)) : nil,
                        distance: random.chance(0.7) ? distance : nil,
                        speed: random.chance(0.4) ? Double(random.below(20_000)) / 1000 : nil,
                        cadence: random.chance(0.3) ? Int(random.below(255)) : nil,
                        runCadence: random.chance(0.3) ? Int(random.below(128)) : nil
                    )
                }
            }
        }
        if !laps.contains(where: { $0.contains { $0.contains { $0.heartRate != nil } } }) {
            time += 1_000_000
            laps[0].append([WrittenPoint(time: time, heartRate: 100)])
        }
        return TCXWriter.Activity(sport: random.chance(0.5) ? "Running" : "Biking", laps: laps,
                                  creator: random.chance(0.7) ? "Forerunner \(random.below(1000)) & <co>" : nil)
    }
}
