import Config
import Foundation
import Sensors
import SessionTestSupport
import TestSupport
import Testing
@testable import Session
import Forwarding
@testable import SessionState

/// One session per configured strap (what `run` starts): separate engines, sinks and state files.
@Suite(.timeLimit(.minutes(1))) struct StrapSessionsTests {
    @Test func eachStrapHasItsOwnActivitySinksAndStateFile() throws {
        let directory = try TemporaryDirectory()
        let console = CapturedConsole()
        let stops = StopLog()
        let made = try StrapSessions.make(try TwoStraps.configuration(directory), context: TwoStraps.context(directory, console: console) {
            stops.add($0.map(String.init(describing:)).joined(separator: " + "))
        })
        #expect(made.map(\.strap.activity.workoutName) == ["Run", "Row"])
        for (_, session) in made { try session.start() }
        let now = try #require(SessionClock.real.now())
        made[0].session.deliver(SensorEvent(time: now, kind: .notification(characteristic: .heartRateMeasurement, value: [0x06, 120])))
        made[1].session.deliver(SensorEvent(time: now, kind: .notification(characteristic: .heartRateMeasurement, value: [0x06, 90])))
        // status() runs on each session's queue after the delivery: both activities have started.
        #expect(made.allSatisfy { $0.session.status().activity != nil })
        let states = try FileManager.default.contentsOfDirectory(atPath: directory.path("state/activities")).filter { $0.hasSuffix(".json") }.sorted()
        #expect(states == ["strap-C8_5F_33_12_34_56.json", "strap-name-Polar_H10_8C4E.json"])
        #expect(throws: SessionError.self, "a second run for the same straps is refused") {
            _ = try StrapSessions.make(try TwoStraps.configuration(directory), context: TwoStraps.context(directory, console: console))
        }
        for (_, session) in made { session.stop(signal: SIGTERM) }
        #expect(made.map { $0.session.wait() } == [.stopped(signal: SIGTERM), .stopped(signal: SIGTERM)])
        #expect(stops.all.sorted() == ["'Polar H10 8C4E' + 'Rower pod'", "C8:5F:33:12:34:56"],
                "each source, the distance sensor beside a strap too, is told to let go")
        let a = try String(contentsOfFile: directory.path("a.ndjson"), encoding: .utf8)
        let b = try String(contentsOfFile: directory.path("b.ndjson"), encoding: .utf8)
        #expect(a.contains("\"workoutName\":\"Run\"") && !a.contains("Row") && a.contains("end:stopped"))
        #expect(b.contains("\"activity\":\"row-") && b.contains("\"heartRate\":90") && b.contains("end:stopped"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path("state/activities")).isEmpty)
    }

    @Test func strapsSharingTheDefaultPrefixGetDistinctActivityIDs() throws {
        let directory = try TemporaryDirectory()
        let text = """
        {"straps": [
          {"address": "C8:5F:33:12:34:56", "workoutName": "Run", "sinks": [{"type": "file", "path": "\(directory.path("a.ndjson"))"}]},
          {"address": "C8:5F:33:12:34:57", "workoutName": "Run", "sinks": [{"type": "file", "path": "\(directory.path("b.ndjson"))"}]}
        ]}
        """
        let console = CapturedConsole()
        let made = try StrapSessions.make(try ConfigurationReader.read(Array(text.utf8), file: "test.json", kinds: SinkKinds.catalog),
                                          context: TwoStraps.context(directory, console: console))
        for (_, session) in made { try session.start() }
        let now = try #require(SessionClock.real.now())
        for (_, session) in made {
            session.deliver(SensorEvent(time: now, kind: .notification(characteristic: .heartRateMeasurement, value: [0x06, 120])))
        }
        let ids = made.compactMap { $0.session.status().activity?.activityID }
        #expect(ids.count == 2 && Set(ids).count == 2, "\(ids)")
        for (_, session) in made { session.stop(signal: SIGTERM) }
        _ = made.map { $0.session.wait() }
        #expect(try String(contentsOfFile: directory.path("a.ndjson"), encoding: .utf8).contains("\"activity\":\"hrbridge-1-"))
        #expect(try String(contentsOfFile: directory.path("b.ndjson"), encoding: .utf8).contains("\"activity\":\"hrbridge-2-"))
    }

    final class StopLog: @unchecked Sendable {
        private let lock = NSLock()
        private var stops: [String] = []
        func add(_ stop: String) { lock.withLock { stops.append(stop) } }
        var all: [String] { lock.withLock { stops } }
    }
}
