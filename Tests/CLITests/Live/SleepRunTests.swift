import BusTestSupport
import DBus
import Foundation
import Sensors
import Testing
import TestSupport

/// The fake logind beside the fake bluetoothd: its lock and its PrepareForSleep switch.
struct FakeLogind {
    let bus: PrivateBus
    let process: ChildProcess

    init(on bus: PrivateBus) throws {
        self.bus = bus
        process = try ChildProcess(Peers.python, [Peers.path("fake_logind.py")], environment: bus.environment).start()
    }

    @discardableResult
    func control(_ method: String) async throws -> [BusValue] {
        let connection = try await BusConnection.connect(to: .address(bus.address))
        defer { Task { await connection.close() } }
        return try await connection.call(BusMethodCall(destination: "hr.test.FakeLogind", path: "/hrtest", interface: "hr.test.FakeLogind",
                                                       method: method))
    }

    /// Sleep delay locks still open.
    func held() async throws -> Int64 { try await control("Held").first?.integer ?? -1 }

    /// Waits until `count` locks are held (a guard against hanging, not a speed test).
    func waitUntilHeld(_ count: Int64, within seconds: Double = 10) async throws {
        let deadline = ContinuousClock.now + .seconds(seconds)
        while try await held() != count {
            guard ContinuousClock.now < deadline else { throw TimedOut(what: "\(count) sleep delay locks held") }
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    func stop() { process.stop() }
}

/// `hrbridge run` across a laptop's sleep, announced by the fake logind: before the sleep the
/// sensor-lost update is out (and flushed to a file sink) when the delay lock is released; during
/// it the process is frozen (SIGSTOP, as the kernel's freezer does) and the adapter is off; after
/// resume a lock is taken again, the strap reconnects and updates resume, and a give-up that passed
/// while asleep ends the activity at its own time.
@Suite(.serialized, .timeLimit(.minutes(2))) struct SleepRunTests {
    struct Sleeper {
        let fake: FakeStrapBus
        let logind: FakeLogind
        let directory: TemporaryDirectory
        let run: RunningBridge
        var filePath: String { directory.path("updates.ndjson") }

        init(_ flags: [String] = []) async throws {
            fake = try FakeStrapBus(["--interval", "50"])
            logind = try FakeLogind(on: fake.bus)
            directory = try TemporaryDirectory()
            run = try RunningBridge(["run", "--device", FakeStrapBus.strap, "--record", directory.path("run.trace"),
                                     "--state-dir", directory.path("state"), "--sink", "stdout",
                                     "--sink", "file:\(directory.path("updates.ndjson"))"] + flags,
                                    environment: fake.bus.environment, logPath: directory.path("stderr"))
        }

        var fileReasons: [String] {
            let text = (try? String(contentsOfFile: filePath, encoding: .utf8)) ?? ""
            return text.split(separator: "\n").compactMap { line in
                ((try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any])?["reason"] as? String
            }
        }

        /// PrepareForSleep(true); returns once hrbridge released its lock. Then, as a real suspend:
        /// the adapter goes off (BlueZ drops every link) and hrbridge is frozen for `seconds`.
        func sleep(for seconds: Double) async throws {
            try await logind.control("Sleep")
            try await logind.waitUntilHeld(0)
            try await fake.control("SetPowered", .boolean(false))
            kill(run.process.processIdentifier, SIGSTOP)
            try await Task.sleep(for: .milliseconds(Int(seconds * 1000)))
        }

        /// Resume: the adapter is back, hrbridge thaws, PrepareForSleep(false).
        func wake() async throws {
            try await fake.control("SetPowered", .boolean(true))
            kill(run.process.processIdentifier, SIGCONT)
            try await logind.control("Wake")
        }
    }

    @Test func beforeSleepTheSensorLostIsOutThenTheLockGoesAndAfterResumeTheStrapComesBack() async throws {
        let sleeper = try await Sleeper()
        let run = sleeper.run
        let start = try await run.waitFor(reason: "start")
        try await sleeper.logind.waitUntilHeld(1)

        try await sleeper.sleep(for: 1)
        #expect(sleeper.fileReasons.last == "sensor-lost", "in the file before the lock was released: \(sleeper.fileReasons)")
        let lost = try await run.waitFor(reason: "sensor-lost")
        #expect(lost["priority"] as? Int == 10)
        #expect((lost["contentState"] as? [String: Any])?["heartRate"] == nil)

        try await sleeper.wake()
        let back = try await run.waitFor(reason: "sensor-back")
        #expect(back["activity"] as? String == start["activity"] as? String, "a short sleep keeps the activity")
        try await sleeper.logind.waitUntilHeld(1)

        #expect(try await run.terminate() == 143, "\(run.stderr)")
        #expect(run.updates.last?["reason"] as? String == "end:stopped")
        #expect(run.stderr.contains("system going to sleep") && run.stderr.contains("system resumed"))
        let trace = try RecordedTrace(path: sleeper.directory.path("run.trace"))
        #expect(trace.events.contains { $0.kind == .disconnected(reason: SensorEvent.Kind.systemSleep) })
        #expect(trace.rates == (try await sleeper.fake.sent()), "the trace holds exactly what the strap sent, across the sleep")
        sleeper.logind.stop()
        sleeper.fake.stop()
    }

    @Test func aGiveUpThatPassedWhileAsleepEndsTheActivityAtItsOwnTimeRightAfterResume() async throws {
        let sleeper = try await Sleeper(["--give-up", "2"])
        let run = sleeper.run
        let start = try await run.waitFor(reason: "start")
        try await sleeper.logind.waitUntilHeld(1)
        try await sleeper.sleep(for: 4)
        let woke = Date().timeIntervalSince1970
        try await sleeper.wake()
        // When it went out is the timestamp's to show (below); how soon after resume it is written
        // depends on the machine's load, so the wait keeps the default bound.
        let end = try await run.waitFor(reason: "end:sensor-gone")
        let ended = try #require(end["timestamp"] as? Double)
        #expect(ended < woke - 0.5, "ended at the give-up time during the sleep (\(ended)), not at resume (\(woke))")
        #expect(end["activity"] as? String == start["activity"] as? String)
        let next = try await run.waitFor(reason: "start")
        #expect(next["activity"] as? String != start["activity"] as? String, "the strap back after resume starts a new activity")
        #expect(try await run.terminate() == 143, "\(run.stderr)")
        sleeper.logind.stop()
        sleeper.fake.stop()
    }

    @Test func withoutLogindARunSaysNothingAboutSleep() async throws {
        let fake = try FakeStrapBus(["--interval", "50"])
        let directory = try TemporaryDirectory()
        let run = try RunningBridge(["run", "--device", FakeStrapBus.strap, "--state-dir", directory.path("state")],
                                    environment: fake.bus.environment, logPath: directory.path("stderr"))
        try await run.waitFor(reason: "start")
        #expect(try await run.terminate() == 143)
        #expect(!run.stderr.lowercased().contains("sleep") && !run.stderr.contains("logind"), "\(run.stderr)")
        fake.stop()
    }
}
