import BusTestSupport
import DBus
import Foundation
import Sensors
import Testing
import TestSupport

/// `hrbridge run` on the fake bluetoothd: the Live Activity updates it prints across faults, the
/// trace it records on the side, and an orderly stop. The fake's rates count up from 1, so the
/// recorded trace shows at once whether a sample was lost or doubled.
@Suite(.serialized, .timeLimit(.minutes(2))) struct RunCommandTests {
    @Test(arguments: [[], ["--no-acquire"]])
    func updatesFollowTheStrapThroughFaultsAndTheTraceHoldsEverySample(mode: [String]) async throws {
        let fake = try FakeStrapBus(["--interval", "20"] + mode)
        let directory = try TemporaryDirectory()
        let tracePath = directory.path("run.trace")
        let run = try RunningBridge(["run", "--device", FakeStrapBus.strap, "--record", tracePath, "--state-dir", directory.path("state"),
                                     "--silence", "1"],
                                    environment: fake.bus.environment, logPath: directory.path("stderr"))
        let start = try await run.waitFor(reason: "start")
        #expect(start["event"] as? String == "start" && start["sequence"] as? Int == 1, "\(run.stderr)")

        // A silence shorter than the link's own watchdog: the engine declares the sensor lost, the
        // link stays up, and the first sample after it brings it back.
        try await fake.control("Silence", .double(2))
        let silenceLost = try await run.waitFor(reason: "sensor-lost")
        #expect((silenceLost["contentState"] as? [String: Any])?["heartRate"] == nil)
        try await run.waitFor(reason: "sensor-back")

        // A dropped link: lost at once (the disconnect), back after the reconnect and re-subscribe.
        try await fake.control("DropLink", .string(FakeStrapBus.strap))
        try await run.waitFor(reason: "sensor-lost")
        try await run.waitFor(reason: "sensor-back")

        // The strap off for a while: the same, through failed connects.
        try await fake.control("StrapOff", .string(FakeStrapBus.strap), .double(1))
        try await run.waitFor(reason: "sensor-lost")
        try await run.waitFor(reason: "sensor-back")

        let disconnectsBefore = try await fake.calls("Disconnect")
        let clock = ContinuousClock()
        let signalled = clock.now
        let status = try await run.terminate()
        print("hrbridge run: SIGTERM to exit took \(clock.now - signalled)")
        #expect(status == 143, "\(run.stderr)")
        #expect(run.updates.last?["reason"] as? String == "end:stopped")
        #expect(run.updates.compactMap { $0["activity"] as? String }.allSatisfy { $0 == start["activity"] as? String },
                "a dropout never ends the activity")
        let sequences = run.updates.compactMap { $0["sequence"] as? Int }
        #expect(sequences == Array(1...sequences.count))
        #expect(try await fake.calls("Disconnect") == disconnectsBefore + 1, "SIGTERM disconnects the strap")
        #expect(run.stderr.contains("stopped notifications and sent Disconnect"))

        // None lost while connected, none doubled after each re-subscribe.
        let trace = try RecordedTrace(path: tracePath)
        #expect(trace.rates == (try await fake.sent()), "the trace holds exactly what the strap sent")
        #expect(trace.events.filter { $0.kind == .connected }.count == 3)
        #expect(trace.events.last?.kind == .disconnected(reason: "stopped"))
        #expect(trace.header.address == FakeStrapBus.strap)
        fake.stop()
    }

    /// Two straps from a configuration file, each with its own activity, file sink and state file:
    /// one switched off for long stays lost while the other goes on updating.
    @Test func configuredStrapsRunSideBySideAndOneInTroubleStallsNoOther() async throws {
        let second = "F1:5A:17:00:00:02"
        let fake = try FakeStrapBus(["--interval", "20", "--straps", "\(FakeStrapBus.strap)=HRM-Sim 1,\(second)=HRM-Sim 2"])
        let directory = try TemporaryDirectory()
        let config = try directory.write("config.json", """
        {"straps": [
          {"address": "\(FakeStrapBus.strap)", "activityIDPrefix": "one", "workoutName": "Run", "sinks": [{"type": "stdout"}, {"type": "file", "path": "\(directory.path("one.ndjson"))"}]},
          {"name": "HRM-Sim 2", "activityIDPrefix": "two", "workoutName": "Rowing", "sinks": [{"type": "stdout"}, {"type": "file", "path": "\(directory.path("two.ndjson"))"}]}
        ],
         "cadence": {"silenceTimeout": 1}}
        """)
        let run = try RunningBridge(["run", "--config", config, "--state-dir", directory.path("state"), "--record", directory.path("both.trace")],
                                    environment: fake.bus.environment, logPath: directory.path("stderr"))
        try await run.waitFor(reason: "start", activityPrefix: "one-")
        try await fake.control("StrapOff", .string(FakeStrapBus.strap), .double(600))
        try await run.waitFor(reason: "sensor-lost", activityPrefix: "one-")
        // Strap two's rate keeps climbing, so it keeps sending changes while strap one is away.
        for _ in 0..<2 { try await run.waitFor(reason: "changed", activityPrefix: "two-") }
        // Each strap its own state file while its activity runs (removed by the orderly stop).
        let stateFiles = try FileManager.default.contentsOfDirectory(atPath: directory.path("state/activities")).filter { $0.hasSuffix(".json") }
        #expect(stateFiles.sorted() == ["strap-F1_5A_17_00_00_01.json", "strap-name-HRM-Sim_2.json"], "\(stateFiles)")
        let status = try await run.terminate()
        #expect(status == 143, "\(run.stderr)")
        for (file, prefix) in [("one.ndjson", "one-"), ("two.ndjson", "two-")] {
            let lines = try String(contentsOfFile: directory.path(file), encoding: .utf8).split(separator: "\n")
            let updates = try lines.map { try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] ?? [:] }
            #expect(updates.allSatisfy { ($0["activity"] as? String)?.hasPrefix(prefix) == true }, "\(file) has only its strap's activity")
            #expect(updates.first?["reason"] as? String == "start")
            #expect(updates.last?["reason"] as? String == "end:stopped")
        }
        let rowing = run.updates.filter { ($0["activity"] as? String)?.hasPrefix("two-") == true }
        #expect(rowing.allSatisfy { ($0["attributes"] as? [String: Any])?["workoutName"] as? String == "Rowing" })
        // --record with two straps: a trace each, holding exactly what that strap sent.
        for (file, strap) in [("both.F1-5A-17-00-00-01.trace", FakeStrapBus.strap), ("both.HRM-Sim-2.trace", second)] {
            let (trace, sent) = (try RecordedTrace(path: directory.path(file)), try await fake.sent(strap))
            #expect(!trace.rates.isEmpty)
            #expect(trace.rates == sent, "\(file)")
        }
        fake.stop()
    }

    @Test func flagsThatTheConfigurationSetsPerStrapAreRefusedBesideIt() throws {
        let directory = try TemporaryDirectory()
        let config = try directory.write("config.json", #"{"straps": [{"address": "F1:5A:17:00:00:01", "workoutName": "Run"}]}"#)
        for flag in [["--device", "HRM"], ["--sink", "stdout"], ["--threshold", "3"]] {
            let result = try FinishedBridge(["run", "--config", config, "--state-dir", directory.url.path] + flag)
            #expect(result.status == 64)
            #expect(result.log.contains("\(flag[0]) and --config exclude each other"), "\(result.log)")
        }
    }

    /// Without --config and without per-strap flags, run takes the configuration file from its
    /// default place (here $XDG_CONFIG_HOME, as /etc/hrbridge/config.json is absent).
    @Test(.enabled(if: !FileManager.default.fileExists(atPath: "/etc/hrbridge/config.json")))
    func runFindsTheConfigurationFileInItsDefaultPlace() throws {
        let directory = try TemporaryDirectory()
        try FileManager.default.createDirectory(atPath: directory.path("hrbridge"), withIntermediateDirectories: true)
        let config = try directory.write("hrbridge/config.json", #"{"straps": [{"address": "F1:5A:17:00:00:01", "workoutNam": "Run"}]}"#)
        let result = try FinishedBridge(["run", "--state-dir", directory.url.path],
                                        environment: ProcessInfo.processInfo.environment.merging(["XDG_CONFIG_HOME": directory.url.path]) { $1 })
        #expect(result.status == 65)
        #expect(result.log.contains("\(config): straps[0].workoutNam: unknown key"), "\(result.log)")
    }
}
