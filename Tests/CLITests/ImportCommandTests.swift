import Foundation
import TestSupport
import Testing
@testable import CLI

@Suite struct ImportCommandTests {
    /// The bundled trace (Sources/CLI/Data) must be exactly what `hrbridge import` makes of the
    /// run's FIT original, so anyone can rebuild it and every import is reproducible; and the text
    /// the build carries in the binary must be exactly the file.
    @Test func reimportingTheOriginalReproducesTheBundledTrace() throws {
        let directory = try TemporaryDirectory()
        let output = directory.path("treadmill.trace")
        let result = runHRBridge(["import", "fit", FITImportCommandTests.original("pri_treadmill_12km.fit"),
                                  "--start", "2024-01-01T06:00:00Z", "--name", "Polar H10 (recording)", "-o", output])
        #expect(result.status == .success, "\(result.log)")
        let file = try String(contentsOfFile: BundledTraceFile.path, encoding: .utf8)
        #expect(try String(contentsOfFile: output, encoding: .utf8) == file)
        #expect(BundledTrace.text == file)
        #expect(file.split(separator: "\n").count(where: { $0.contains(" notify 2a37 ") }) == 3_862)
        #expect(file.split(separator: "\n").count(where: { $0.contains(" distance notify 2a53 ") }) == 3_862)
    }

    @Test func importsRRIntervalsAndAStartTime() throws {
        let directory = try TemporaryDirectory()
        let rates = try directory.write("hr.csv", "t_seconds,bpm\n0,61\n1,62\n")
        let intervals = try directory.write("rr.csv", "t_seconds,rr_ms\n0.5,1000\n0.98,980\n1.5,970\n")
        let output = directory.path("out.trace")
        let result = runHRBridge(["import", "csv", rates, "--rr", intervals, "--start", "2024-05-01T08:30:00+02:00", "-o", output])
        #expect(result.status == .success)
        #expect(result.log.contains("1 RR intervals end after the last rate sample"))
        #expect(try String(contentsOfFile: output, encoding: .utf8) == """
        hrbridge-trace 1 start=2024-05-01T06:30:00.000000Z source=hr.csv%20+%20rr.csv
        0 note imported from hr.csv + rr.csv
        0 connected
        0 notify 2a37 063d
        1000000 notify 2a37 163e0004ec03

        """)
    }

    /// A time no trace can hold is a bad row, not a crash (issue 15).
    @Test func timePastYear9999Exits65WithFileAndLine() throws {
        let directory = try TemporaryDirectory()
        let rates = try directory.write("hr.csv", "t_seconds,bpm\n0,61\n6e40,62\n")
        let result = runHRBridge(["import", "csv", rates, "--start", "9999-12-31T23:00:00Z", "-o", directory.path("out.trace")])
        #expect(result.status == .dataError)
        #expect(result.log == "hrbridge: \(rates):3: t_seconds 6e40 is past the end of year 9999, the last a trace can hold\n")
    }

    /// A start the trace header could not be written with (year −1 here) is refused before anything is written.
    @Test func startOutsideTheTraceYearsExits64() throws {
        let directory = try TemporaryDirectory()
        let rates = try directory.write("hr.csv", "t_seconds,bpm\n0,61\n")
        let result = runHRBridge(["import", "csv", rates, "--start", "0000-01-01T00:00:00+00:01", "-o", directory.path("out.trace")])
        #expect(result.status == .usage)
        #expect(result.log.hasPrefix("hrbridge: --start '0000-01-01T00:00:00+00:01' is outside the years 1970–9999 a trace can hold\n"))
    }

    @Test func badRowExits65WithFileAndLine() throws {
        let directory = try TemporaryDirectory()
        let rates = try directory.write("hr.csv", "t_seconds,bpm\n0,61\n1;62\n")
        let result = runHRBridge(["import", "csv", rates, "-o", directory.path("out.trace")])
        #expect(result.status == .dataError)
        #expect(result.log == "hrbridge: \(rates):3: expected 2 comma-separated columns (t_seconds,bpm), found 1\n")
    }

    /// Without FORMAT the content decides; what nothing recognises is refused with exit 65.
    @Test func theFormatComesFromTheContent() throws {
        let directory = try TemporaryDirectory()
        let rates = try directory.write("recording.txt", "t_seconds,bpm\n0,61\n1,62\n")
        let named = runHRBridge(["import", "csv", rates, "-o", directory.path("named.trace")])
        let sniffed = runHRBridge(["import", rates, "-o", directory.path("sniffed.trace")])
        #expect(sniffed.status == .success, "\(sniffed.log)")
        #expect(try String(contentsOfFile: directory.path("sniffed.trace"), encoding: .utf8)
                == String(contentsOfFile: directory.path("named.trace"), encoding: .utf8))
        #expect(named.status == .success)

        let unknown = try directory.write("notes.txt", "just words\n")
        let refused = runHRBridge(["import", unknown, "-o", directory.path("x.trace")])
        #expect(refused.status == .dataError)
        #expect(refused.log.contains("\(unknown): not a recording hrbridge can import"))
        #expect(runHRBridge(["import", "xls", rates, "-o", directory.path("x.trace")]).status == .usage)
        #expect(runHRBridge(["import", directory.path("missing.csv"), "-o", directory.path("x.trace")]).status == .noInput)
    }

    /// XML is told by its root element after the prolog, whatever the prefix; CSV by two columns.
    @Test(arguments: [
        ("<?xml version=\"1.0\"?>\n<!-- a, b -->\n<!DOCTYPE x>\n<TrainingCenterDatabase xmlns=\"urn:x\">", ImportFormat.tcx),
        ("\u{FEFF}<tcx:TrainingCenterDatabase xmlns:tcx=\"urn:x\">\n<Activities>", .tcx),
        ("\u{FEFF}words<gpx>", nil),
        ("<?xml version='1.0' encoding='UTF-8'?>\n<gpx creator=\"a, b\" version=\"1.1\">", .gpx),
        ("<?xml version=\"1.0\"?><kml xmlns=\"http://www.opengis.net/kml/2.2\">", nil),
        ("t_seconds,bpm\n0,61\n", .csv),
        ("just words\n", nil),
    ])
    func recognisesFormatsByContent(head: String, format: ImportFormat?) {
        #expect(ImportFormat.recognising(Array(head.utf8)) == format)
    }

    @Test func unwritableOutputExits73() throws {
        let directory = try TemporaryDirectory()
        let rates = try directory.write("hr.csv", "0,61\n")
        let result = runHRBridge(["import", "csv", rates, "-o", "/nonexistent/dir/out.trace"])
        #expect(result.status == .cannotCreate)
    }
}
