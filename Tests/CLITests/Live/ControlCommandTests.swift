import BusTestSupport
import DBus
import Foundation
import Testing
import TestSupport

/// `hrbridge ctl` against the built binary serving io.hrbridge.Bridge1 on a private session bus:
/// a paced replay (no strap needed) and a two-strap run on the fake bluetoothd.
@Suite(.serialized, .timeLimit(.minutes(2))) struct ControlCommandTests {
    static func ctl(_ arguments: [String], on bus: PrivateBus) async throws -> FinishedBridge {
        let environment = bus.environment
        return try await offThePool { try FinishedBridge(["ctl"] + arguments, environment: environment) }
    }

    static func contentState(_ update: [String: Any]) -> [String: Any] {
        update["contentState"] as? [String: Any] ?? [:]
    }

    static func isSet(_ value: Any?) -> Bool { value != nil && !(value is NSNull) }

    @Test func pauseResumeLabelAndEndReachTheActivity() async throws {
        let bus = try PrivateBus()
        let directory = try TemporaryDirectory()
        let replay = try RunningBridge(["replay", "--speed", "1", "--state-dir", directory.path("state")],
                                       environment: bus.environment, logPath: directory.path("stderr"))
        try await replay.waitFor(reason: "start")

        let status = try await Self.ctl(["status"], on: bus)
        #expect(status.status == 0, "\(status.log)")
        #expect(status.output.hasPrefix("replay: running, activity hrbridge-20240101T060000Z-1 #"), "\(status.output)")

        #expect(try await Self.ctl(["pause"], on: bus).status == 0)
        let paused = try await replay.waitFor(reason: "paused")
        #expect(Self.isSet(Self.contentState(paused)["pausedAt"]), "\(paused)")
        #expect(try await Self.ctl(["status"], on: bus).output.contains(", paused)"))

        #expect(try await Self.ctl(["resume"], on: bus).status == 0)
        let resumed = try await replay.waitFor(reason: "resumed")
        #expect(!Self.isSet(Self.contentState(resumed)["pausedAt"]), "\(resumed)")

        #expect(try await Self.ctl(["label", "Intervals"], on: bus).status == 0)
        let labelled = try await replay.waitFor(reason: "label")
        #expect(Self.contentState(labelled)["intervalLabel"] as? String == "Intervals", "\(labelled)")

        let end = try await Self.ctl(["end"], on: bus)
        #expect(end.status == 0, "\(end.log)")
        let ended = try await replay.waitFor(reason: "end:stopped")
        #expect(ended["event"] as? String == "end")
        #expect(Self.contentState(ended)["intervalLabel"] as? String == "Intervals")
        #expect(try await replay.next() == nil, "nothing after the end")
        #expect(try await replay.exited() == 0, "\(replay.stderr)")

        let gone = try await Self.ctl(["status"], on: bus)
        #expect(gone.status == 69)
        #expect(gone.log.contains("no hrbridge is running on the session bus"), "\(gone.log)")
        bus.stop()
    }

    @Test func nobodyRunningWrongStrapAndATakenNameAreClear() async throws {
        let bus = try PrivateBus()
        let nobody = try await Self.ctl(["pause"], on: bus)
        #expect(nobody.status == 69)
        #expect(nobody.log.contains("no hrbridge is running on the session bus") && nobody.log.contains("--system"), "\(nobody.log)")
        #expect(try await Self.ctl(["jump"], on: bus).status == 64)
        #expect(try await Self.ctl(["label"], on: bus).status == 64)

        let directory = try TemporaryDirectory()
        let replay = try RunningBridge(["replay", "--speed", "1", "--state-dir", directory.path("state")],
                                       environment: bus.environment, logPath: directory.path("stderr"))
        try await replay.waitFor(reason: "start")
        let wrong = try await Self.ctl(["pause", "--strap", "F1:5A:17:00:00:09"], on: bus)
        #expect(wrong.status == 64)
        #expect(wrong.log.contains("no strap 'F1:5A:17:00:00:09' in this run; it has: replay"), "\(wrong.log)")

        // A second bridge on the same bus cannot take the controls: refused before it starts.
        let environment = bus.environment
        let otherState = directory.path("other")
        let second = try await offThePool {
            try FinishedBridge(["replay", "--speed", "1", "--state-dir", otherState], environment: environment)
        }
        #expect(second.status == 75)
        #expect(second.log.contains("io.hrbridge.Bridge1 is already owned on the session bus") && second.log.contains("--control-bus none"),
                "\(second.log)")
        #expect(second.output.isEmpty)

        #expect(try await replay.terminate() == 143, "\(replay.stderr)")
        bus.stop()
    }

    /// The system bus's policy (udev/io.hrbridge.Bridge1.conf) turns away users outside group hrbridge.
    @Test func accessDeniedNamesTheGroup() async throws {
        let bus = try PrivateBus(denyingSendsTo: "io.hrbridge.Bridge1")
        let directory = try TemporaryDirectory()
        let replay = try RunningBridge(["replay", "--speed", "1", "--state-dir", directory.path("state")],
                                       environment: bus.environment, logPath: directory.path("stderr"))
        try await replay.waitFor(reason: "start")
        let denied = try await Self.ctl(["status"], on: bus)
        #expect(denied.status == 69)
        #expect(denied.log.contains("not allowed to call io.hrbridge.Bridge1") && denied.log.contains("group hrbridge"), "\(denied.log)")
        #expect(try await replay.terminate() == 143, "\(replay.stderr)")
        bus.stop()
    }

    /// Ending one strap's activity leaves the other strap running, and its controls working.
    @Test func endingOneStrapLeavesTheOther() async throws {
        let second = "F1:5A:17:00:00:02"
        let fake = try FakeStrapBus(["--interval", "20", "--straps", "\(FakeStrapBus.strap)=HRM-Sim 1,\(second)=HRM-Sim 2"])
        let directory = try TemporaryDirectory()
        let run = try RunningBridge(["run", "--device", FakeStrapBus.strap, "--device", "HRM-Sim 2", "--state-dir", directory.path("state")],
                                    environment: fake.bus.environment, logPath: directory.path("stderr"))
        try await run.waitFor(reason: "start", activityPrefix: "hrbridge-1-")
        try await run.waitFor(reason: "start", activityPrefix: "hrbridge-2-")
        let end = try await Self.ctl(["end", "--strap", FakeStrapBus.strap.lowercased()], on: fake.bus)
        #expect(end.status == 0, "\(end.log)")
        try await run.waitFor(reason: "end:stopped", activityPrefix: "hrbridge-1-")
        #expect(try await Self.ctl(["label", "Cool-down", "--strap", "HRM-Sim 2"], on: fake.bus).status == 0)
        let labelled = try await run.waitFor(reason: "label", activityPrefix: "hrbridge-2-")
        #expect(Self.contentState(labelled)["intervalLabel"] as? String == "Cool-down")
        let status = try await Self.ctl(["status"], on: fake.bus)
        #expect(status.output.contains("\(FakeStrapBus.strap): stopped, no activity"), "\(status.output)")
        #expect(status.output.contains("HRM-Sim 2: running, activity hrbridge-2-"), "\(status.output)")
        let again = try await Self.ctl(["end", "--strap", FakeStrapBus.strap], on: fake.bus)
        #expect(again.status == 69 && again.log.contains("already ended"), "\(again.log)")
        #expect(try await run.terminate() == 143, "\(run.stderr)")
        // Strap two ran on until the signal ended it.
        let twoEnds = run.updates.filter { ($0["activity"] as? String)?.hasPrefix("hrbridge-2-") == true && $0["event"] as? String == "end" }
        #expect(twoEnds.count == 1)
        fake.stop()
    }
}
