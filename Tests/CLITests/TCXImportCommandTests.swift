import Foundation
import TestSupport
import Testing
@testable import CLI

/// `hrbridge import tcx` on the real files: the trace, what is said on stderr, the exit statuses.
@Suite struct TCXImportCommandTests {
    /// The FR410's run replays its distance: the foot pod's totals end where the file's last
    /// DistanceMeters (4686.31103516 m) does.
    @Test func fr410ReplaysItsDistance() throws {
        let directory = try TemporaryDirectory()
        let output = directory.path("fr410.trace")
        let imported = runHRBridge(["import", "tcx", RecordingFixtures.original("tcxparser_fr410.tcx"), "-o", output])
        #expect(imported.status == .success, "\(imported.log)")
        #expect(imported.log == "hrbridge: skipped: 1 Trackpoint without a heart rate (a gap)\nhrbridge: wrote 766 notifications to \(output)\n")
        let trace = try String(contentsOfFile: output, encoding: .utf8)
        #expect(trace.hasPrefix("""
        hrbridge-trace 2 start=2012-12-26T21:29:53.000000Z name=Forerunner%20410%20Software%20Version%202.20 source=tcxparser_fr410.tcx
        0 note imported from tcxparser_fr410.tcx (Forerunner 410 Software Version 2.20)
        0 connected
        0 notify 2a37 063e
        0 distance connected
        0 distance notify 2a53 0200000000000000

        """))

        let replay = runHRBridge(["replay", "--fast", "--distance-step", "1", output])
        #expect(replay.status == .success)
        let last = try #require(replay.output.split(separator: "\n").last)
        let update = try #require(try JSONSerialization.jsonObject(with: Data(last.utf8)) as? [String: Any])
        let distance = try #require((update["contentState"] as? [String: Any])?["distanceMeters"] as? Double)
        #expect(distance > 0)
        #expect(abs(distance - 4686.31103516) < 1)
    }

    /// Without FORMAT the root element says TCX; several activities are listed, `--activity` picks one.
    @Test func severalActivitiesAreListedAndOneChosen() throws {
        let directory = try TemporaryDirectory()
        let path = RecordingFixtures.original("ap_multi_activity.tcx")
        let listing = """
        hrbridge: \(path) holds 2 activities (--activity N picks one):
        hrbridge:   1: Biking, 2026-01-05T08:00:00Z, 1 point
        hrbridge:   2: Running, 2026-01-05T09:00:00Z, 1 point

        """
        let first = runHRBridge(["import", path, "-o", directory.path("first.trace")])
        #expect(first.status == .success)
        #expect(first.log.hasPrefix(listing))
        #expect(try String(contentsOfFile: directory.path("first.trace"), encoding: .utf8).contains("0 notify 2a37 0664\n"))

        let second = runHRBridge(["import", "tcx", path, "--activity", "2", "-o", directory.path("second.trace")])
        #expect(second.status == .success)
        let trace = try String(contentsOfFile: directory.path("second.trace"), encoding: .utf8)
        #expect(trace.hasPrefix("hrbridge-trace 1 start=2026-01-05T09:00:00.000000Z source=ap_multi_activity.tcx\n"))
        #expect(trace.contains("0 notify 2a37 068c\n"))

        let third = runHRBridge(["import", "tcx", path, "--activity", "3", "-o", directory.path("third.trace")])
        #expect(third.status == .usage)
        #expect(third.log.hasPrefix(listing + "hrbridge: --activity 3: \(path) has no activity 3\n"))
        #expect(runHRBridge(["import", "tcx", path, "--activity", "0", "-o", directory.path("x.trace")]).status == .usage)
    }

    /// A bad file is `path: line N: reason` and exit 65; what the format tolerates is counted.
    @Test func badFilesExit65AndToleratedDefectsAreCounted() throws {
        let directory = try TemporaryDirectory()
        let noTime = RecordingFixtures.original("ap_no_time.tcx")
        let refused = runHRBridge(["import", "tcx", noTime, "-o", directory.path("x.trace")])
        #expect(refused.status == .dataError)
        #expect(refused.log == "hrbridge: \(noTime): line 22: Trackpoint without a Time: TCX requires one, and a point cannot be placed without it\n")

        let malformed = try directory.write("broken.tcx", "<TrainingCenterDatabase xmlns=\"http://www.garmin.com/xmlschemas/TrainingCenterDatabase/v2\">\n<Activities>\n</TrainingCenterDatabase>\n")
        let broken = runHRBridge(["import", malformed, "-o", directory.path("x.trace")])
        #expect(broken.status == .dataError)
        #expect(broken.log == "hrbridge: \(malformed): line 3: end tag </TrainingCenterDatabase> where <Activities> (line 2) must end\n")

        let sample = runHRBridge(["import", "tcx", RecordingFixtures.original("ap_sample.tcx"), "-o", directory.path("sample.trace")])
        #expect(sample.status == .success)
        #expect(sample.log.hasPrefix("""
        hrbridge: skipped: 1 Trackpoint at the same time as the one before (the first kept), 5 Trackpoint extension Watts (http://www.garmin.com/xmlschemas/ActivityExtension/v2) not read

        """))
    }

    /// `--start` moves the file's own times; `--activity` is TCX's alone, `--rr` CSV's.
    @Test func startMovesTheFilesTimesAndFlagsBelongToTheirFormat() throws {
        let directory = try TemporaryDirectory()
        let path = RecordingFixtures.original("ap_no_position.tcx")
        let moved = runHRBridge(["import", "tcx", path, "--start", "2024-05-01T08:30:00+02:00", "-o", directory.path("moved.trace")])
        #expect(moved.status == .success)
        #expect(try String(contentsOfFile: directory.path("moved.trace"), encoding: .utf8) == """
        hrbridge-trace 1 start=2024-05-01T06:30:00.000000Z source=ap_no_position.tcx
        0 note imported from ap_no_position.tcx
        0 connected
        0 notify 2a37 0664
        1000000 notify 2a37 0665
        2000000 notify 2a37 0666

        """)
        let rates = try directory.write("hr.csv", "0,61\n")
        #expect(runHRBridge(["import", "csv", rates, "--activity", "2", "-o", directory.path("x.trace")]).status == .usage)
        #expect(runHRBridge(["import", "tcx", path, "--rr", rates, "-o", directory.path("x.trace")]).status == .usage)
    }
}
