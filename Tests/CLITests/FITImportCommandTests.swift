import Foundation
import TestSupport
import Testing
@testable import CLI

/// `hrbridge import fit`: the real originals end to end, and its refusals.
@Suite struct FITImportCommandTests {
    static func original(_ name: String) -> String {
        recordingsDirectory.appendingPathComponent("originals/\(name)").path
    }

    static func lines(_ path: String) throws -> [Substring] {
        try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
    }

    /// The FIT file behind the bundled trace's CSV gives the same strap notifications, with the
    /// foot pod's beside them and the timer's stop.
    @Test func theTreadmillRunImportsAsTheBundledTraceWithItsDistance() throws {
        let directory = try TemporaryDirectory()
        let output = directory.path("run.trace")
        let result = runHRBridge(["import", "fit", Self.original("pri_treadmill_12km.fit"), "-o", output])
        #expect(result.status == .success, "\(result.log)")
        #expect(result.log == """
        hrbridge: skipped: 2 messages hrbridge does not read
        hrbridge: wrote 7724 notifications to \(output)

        """)
        let trace = try Self.lines(output)
        #expect(trace[0] == "hrbridge-trace 2 start=2026-03-04T18:07:55.000000Z name=manufacturer%20123%20product%200 source=pri_treadmill_12km.fit")
        #expect(trace[1] == "0 note imported from pri_treadmill_12km.fit (manufacturer 123 product 0)")
        #expect(trace.filter { $0.contains(" notify 2a37 ") } == (try Self.lines(BundledTraceFile.path)).filter { $0.contains(" notify 2a37 ") })
        #expect(trace.filter { $0.contains(" distance notify 2a53 ") }.count == 3_862)
        #expect(trace.contains("3860000000 pause"))
    }

    /// Replayed, the distance is the pod's: 12,008.5 m, the file's distance when the timer stopped
    /// (the last record, 1 s after the stop, adds 3.2 m a paused workout does not count).
    @Test func theImportedDistanceReplays() throws {
        let directory = try TemporaryDirectory()
        let output = directory.path("run.trace")
        #expect(runHRBridge(["import", Self.original("pri_treadmill_12km.fit"), "-o", output]).status == .success)
        let replay = runHRBridge(["replay", "--fast", output])
        #expect(replay.status == .success, "\(replay.log)")
        let last = try JSONSerialization.jsonObject(with: Data(replay.output.split(separator: "\n").last!.utf8)) as! [String: Any]
        let meters = (last["contentState"] as! [String: Any])["distanceMeters"] as! Double
        #expect(abs(meters - 12_008.50) < 1)
    }

    @Test func theFenixRunSaysWhatItSkipped() throws {
        let directory = try TemporaryDirectory()
        let output = directory.path("run.trace")
        let result = runHRBridge(["import", "fit", Self.original("ap_garmin_fenix_5_run.fit"), "-o", output])
        #expect(result.status == .success, "\(result.log)")
        #expect(result.log == """
        hrbridge: skipped: 242 invalid values (absent, not zero), 24 messages hrbridge does not read, 294 record fields hrbridge does not read
        hrbridge: 29 RR intervals end after the last rate sample and are not in the trace
        hrbridge: wrote 42 notifications to \(output)

        """)
    }

    /// Named or sniffed (".FIT" at bytes 8–11), the same trace; `--start` moves the file's times.
    @Test func theFormatIsSniffedAndStartMovesTheTimes() throws {
        let directory = try TemporaryDirectory()
        let fit = Self.original("ap_garmin_fenix_5_run.fit")
        #expect(runHRBridge(["import", "fit", fit, "-o", directory.path("named.trace")]).status == .success)
        #expect(runHRBridge(["import", fit, "-o", directory.path("sniffed.trace")]).status == .success)
        #expect(try Self.lines(directory.path("sniffed.trace")) == Self.lines(directory.path("named.trace")))

        #expect(runHRBridge(["import", fit, "--start", "2024-05-01T08:30:00+02:00", "-o", directory.path("moved.trace")]).status == .success)
        let moved = try Self.lines(directory.path("moved.trace")), named = try Self.lines(directory.path("named.trace"))
        #expect(moved[0] == "hrbridge-trace 2 start=2024-05-01T06:30:00.000000Z name=manufacturer%201%20product%202697 source=ap_garmin_fenix_5_run.fit")
        #expect(named[0].hasPrefix("hrbridge-trace 2 start=2017-06-11T14:34:09.000000Z "))
        #expect(moved.dropFirst() == named.dropFirst())
    }

    @Test func badFilesExit65AtTheirByte() throws {
        let directory = try TemporaryDirectory()
        let bytes = try Data(contentsOf: URL(fileURLWithPath: Self.original("ap_garmin_fenix_5_run.fit")))
        let truncated = directory.path("truncated.fit")
        try bytes.prefix(4000).write(to: URL(fileURLWithPath: truncated))
        let cut = runHRBridge(["import", "fit", truncated, "-o", directory.path("x.trace")])
        #expect(cut.status == .dataError)
        #expect(cut.log == "hrbridge: \(truncated): byte 4000: the file ends before the 5581 bytes of records and the CRC its header announces (truncated)\n")

        let timeless = Self.original("ap_developer_data.fit")
        let refused = runHRBridge(["import", timeless, "-o", directory.path("x.trace")])
        #expect(refused.status == .dataError)
        #expect(refused.log == "hrbridge: \(timeless): byte 146: record without a time (no timestamp field 253, no compressed timestamp header)\n")
        #expect(!FileManager.default.fileExists(atPath: directory.path("x.trace")))
    }

    @Test func rrIntervalsComeFromTheFileNotAFlag() throws {
        let directory = try TemporaryDirectory()
        let rr = recordingsDirectory.appendingPathComponent("ap_garmin_fenix_5_run.rr.csv").path
        let result = runHRBridge(["import", "fit", Self.original("ap_garmin_fenix_5_run.fit"), "--rr", rr, "-o", directory.path("x.trace")])
        #expect(result.status == .usage)
        #expect(result.log.hasPrefix("hrbridge: --rr is for csv (the other formats hold their own RR intervals, or none)\n"))
    }
}
