import Foundation
import TestSupport
import Testing
@testable import CLI

/// `hrbridge import gpx`: segments and tracks as pauses, what is said on stderr, the exit statuses.
@Suite struct GPXImportCommandTests {
    static func point(_ longitude: String, _ time: String, _ heartRate: Int) -> String {
        """
            <trkpt lat="0" lon="\(longitude)"><time>\(time)</time><extensions><gpxtpx:TrackPointExtension>\
        <gpxtpx:hr>\(heartRate)</gpxtpx:hr></gpxtpx:TrackPointExtension></extensions></trkpt>
        """
    }

    /// Two segments, then a second track: each gap is a pause with no distance across it (0.0001°
    /// of longitude on the equator is 11.1 m, 0x6f decimetres, and stays so).
    static let twoTracks = """
    <?xml version="1.0" encoding="UTF-8"?>
    <gpx version="1.1" creator="a test" xmlns="http://www.topografix.com/GPX/1/1"
         xmlns:gpxtpx="http://www.garmin.com/xmlschemas/TrackPointExtension/v2">
      <trk><trkseg>
    \(point("0", "2024-05-01T06:30:00Z", 100))
    \(point("0.0001", "2024-05-01T08:30:01+02:00", 101))
      </trkseg><trkseg>
    \(point("0.01", "2024-05-01T06:30:31Z", 102))
      </trkseg></trk>
      <trk><trkseg>
    \(point("0.0101", "2024-05-01T06:31:01Z", 103))
      </trkseg></trk>
    </gpx>

    """

    @Test func segmentsAndTracksArePausesWithoutDistanceAcrossThem() throws {
        let directory = try TemporaryDirectory()
        let path = try directory.write("two.gpx", Self.twoTracks)
        let output = directory.path("two.trace")
        let result = runHRBridge(["import", path, "-o", output]) // the root element says GPX
        #expect(result.status == .success, "\(result.log)")
        #expect(result.log == """
        hrbridge: \(path) holds 2 tracks: joined one after the other like segments, the time between them a pause
        hrbridge: wrote 8 notifications to \(output)

        """)
        #expect(try String(contentsOfFile: output, encoding: .utf8) == """
        hrbridge-trace 2 start=2024-05-01T06:30:00.000000Z source=two.gpx
        0 note imported from two.gpx
        0 connected
        0 notify 2a37 0664
        0 distance connected
        0 distance notify 2a53 0200000000000000
        1000000 notify 2a37 0665
        1000000 distance notify 2a53 020000006f000000
        1000000 pause
        31000000 resume
        31000000 notify 2a37 0666
        31000000 distance notify 2a53 020000006f000000
        31000000 pause
        61000000 resume
        61000000 notify 2a37 0667
        61000000 distance notify 2a53 020000006f000000

        """)
    }

    /// GPX times are optional, but a file with none has nothing to replay; a bad position or
    /// malformed XML is `path: line N: reason` too.
    @Test(arguments: [
        ("<gpx xmlns=\"http://www.topografix.com/GPX/1/1\">\n<trk><trkseg><trkpt lat=\"1\" lon=\"2\"/></trkseg></trk></gpx>",
         "line 1: the file has no trkpt with a time: nothing to replay"),
        ("<gpx xmlns=\"http://www.topografix.com/GPX/1/1\"><trk><trkseg>\n<trkpt lat=\"95\" lon=\"2\"/></trkseg></trk></gpx>",
         "line 2: trkpt lat 95 is outside -90…90"),
        ("<gpx xmlns=\"http://www.topografix.com/GPX/1/1\"><trk><trkseg>\n<trkpt lat=\"1\" lon=\"2\"><time>noon</time></trkpt></trkseg></trk></gpx>",
         "line 2: time 'noon' is not a date and time such as 2024-05-01T06:30:00Z"),
        // A trace header cannot be written for year 0 (issue 15); the same walker reads TCX times.
        ("<gpx xmlns=\"http://www.topografix.com/GPX/1/1\"><trk><trkseg>\n<trkpt lat=\"1\" lon=\"2\"><time>0000-01-01T00:00:00Z</time></trkpt></trkseg></trk></gpx>",
         "line 2: time '0000-01-01T00:00:00Z' is outside the years 1970–9999 a trace can hold"),
        ("<gpx xmlns=\"http://www.topografix.com/GPX/1/0\"></gpx>",
         "line 1: GPX 1.0 is not read, only GPX 1.1 (where Garmin's extensions carry the heart rate)"),
        ("<gpx xmlns=\"http://www.topografix.com/GPX/1/1\">\n<trk>\n</gpx>", "line 3: end tag </gpx> where <trk> (line 2) must end"),
    ])
    func badFilesExit65WithTheLine(document: String, error: String) throws {
        let directory = try TemporaryDirectory()
        let path = try directory.write("bad.gpx", document)
        let result = runHRBridge(["import", "gpx", path, "-o", directory.path("x.trace")])
        #expect(result.status == .dataError)
        #expect(result.log == "hrbridge: \(path): \(error)\n")
    }

    @Test func activityIsNotAGPXFlag() throws {
        let directory = try TemporaryDirectory()
        let path = try directory.write("two.gpx", Self.twoTracks)
        let result = runHRBridge(["import", "gpx", path, "--activity", "1", "-o", directory.path("x.trace")])
        #expect(result.status == .usage)
        #expect(result.log.hasPrefix("hrbridge: --activity is for tcx (only TCX files hold several activities)\n"))
    }
}
