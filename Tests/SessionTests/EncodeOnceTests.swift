import Forwarding
import Foundation
import LiveState
import Sensors
import SessionTestSupport
import TestSupport
import Testing
import Trace
@testable import Session
@testable import SessionState

/// Each update's NDJSON line is encoded once, however many take it: the state file's `lastUpdate`
/// (its twin, written on every update) and every sink get the same bytes. Counted over a whole replay through the journal a live
/// session sends by (state file first, then the sinks).
@Suite struct EncodeOnceTests {
    /// Keeps the body each update came with, as a network sink would send it.
    final class BodySink: UpdateSink {
        let name = "bodies"
        private(set) var bodies: [[UInt8]] = []

        func accept(_ update: EncodedUpdate) throws(SinkError) {
            do {
                bodies.append(try update.body())
            } catch {
                throw SinkError(sink: name, message: error.description)
            }
        }

        func finish(grace: Double) {}
        func settle(within seconds: Double) {}
        var counters: SinkCounters { SinkCounters() }
    }

    static let trace = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("CLITests/Fixtures/dropouts.trace").path

    @Test func aReplaysUpdatesAreEncodedOnceForTheStateFileAndEverySink() throws {
        let directory = try TemporaryDirectory()
        let bodies = BodySink()
        let sinks = SinkSet(sinks: [try LineSink.appending(toFile: directory.path("updates.ndjson")), bodies],
                            relay: SinkLogRelay(), console: CapturedConsole())
        var journal = ActivityJournal(sinks: sinks, stateFile: try ActivityStateFile(directory: directory.path("state"), key: "once"))
        var drive = TraceDrive(reader: try TraceReader(path: Self.trace), pacer: ReplayPacer(pace: .fastest),
                               feed: WorkoutFeed(engine: try LiveStateEngine(policy: CadencePolicy())))
        var stateFiles: [Data] = []
        let encodings = UpdateLine.EncodingCount()
        try UpdateLine.$encodings.withValue(encodings) {
            _ = try drive.run(TraceDrive.Observer(update: { update throws(SessionError) in
                do throws(ActivityJournal.Failure) {
                    try journal.append(update)
                } catch {
                    switch error {
                    case let .stateFile(failure), let .sink(failure): throw failure
                    }
                }
                stateFiles.append(FileManager.default.contents(atPath: directory.path("state/activities/once.json.newest")) ?? Data())
            }, warning: { _ in }))
        }
        sinks.finish()

        let lines = try #require(FileManager.default.contents(atPath: directory.path("updates.ndjson")))
            .split(separator: UInt8(ascii: "\n")).map(Array.init)
        #expect(lines.count > 10, "the trace's dropouts make updates")
        #expect(encodings.count.load(ordering: .relaxed) == lines.count, "one encoding per update")
        #expect(bodies.bodies == lines, "every sink sends the bytes the file has")
        for (stateFile, line) in zip(stateFiles, lines) {
            #expect(stateFile.range(of: Data(",\"lastUpdate\":".utf8 + line + "}".utf8)) != nil,
                    "the state file holds the line its sinks were sent")
        }
    }
}
