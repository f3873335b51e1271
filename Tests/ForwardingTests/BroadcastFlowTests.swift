import Foundation
import ProcessTestSupport
import TestSupport
import Testing
@testable import CLI
@testable import Forwarding

/// Broadcast channels with real parts: `hrbridge replay --speed` (a live session with its state
/// directory) publishing to the HTTP/2 APNs test server, which manages channels as APNs does; the
/// push-to-start token registered over the HTTP API; the channel said over HTTP and, retained, on
/// a real mosquitto; a restart, a crash, and `hrbridge recover`.
@Suite(.serialized, .timeLimit(.minutes(3))) struct BroadcastFlowTests {
    static let bundleID = BroadcastSinkTests.bundleID

    final class Rig {
        let files: TemporaryDirectory
        let certificates: TestCertificates
        let server: ServerProcess
        let keyPath: String
        let trace: String

        init() throws {
            files = try TemporaryDirectory()
            certificates = try TestCertificates.make()
            server = try ServerProcess(script: "h2_push_server.py", arguments: [certificates.serverCertificate, certificates.serverKey, "[]"])
            keyPath = try TestCertificates.makeAPNsKey(in: files)
            trace = try BridgeProcess.climbingTrace(in: files)
        }

        var apnsFlags: [String] {
            ["--sink", "apns", "--apns-server", "https://127.0.0.1:\(server.port)", "--ca-file", certificates.caFile,
             "--apns-key-file", keyPath, "--apns-key-id", "KEY1234567", "--apns-team-id", "TEAM123456",
             "--apns-bundle-id", BroadcastFlowTests.bundleID, "--apns-broadcast", "1"]
        }

        /// Each request as `METHOD PATH`, in arrival order.
        var lines: [String] { server.requests().map { "\($0.header(":method") ?? "") \($0.header(":path") ?? "")" } }
        var broadcasts: [RecordedRequest] { server.requests().filter { $0.header(":path") == BroadcastSinkTests.broadcastPath } }
        func requests(_ line: String) -> [RecordedRequest] { server.requests().filter { "\($0.header(":method") ?? "") \($0.header(":path") ?? "")" == line } }
    }

    static let create = "POST \(BroadcastSinkTests.channelsPath)"
    static let delete = "DELETE \(BroadcastSinkTests.channelsPath)"
    static let publish = "POST \(BroadcastSinkTests.broadcastPath)"
    static let pushToStart = "POST /3/device/\(APNsSinkTests.startToken)"

    /// The done-when of issue 46: with a registered push-to-start token, one create, the push-to-start
    /// joining the channel, the updates and the end published on it in order, one delete after the
    /// end's dismissal date (long past: the trace's own times); the channel said over HTTP and MQTT.
    /// A routine update the channel's queue could not send yet may be superseded by a newer one (a
    /// starved machine), as on every APNs path: in order, none twice, only what the run made.
    @Test func aReplayCreatesStartsPublishesEveryUpdateAndDeletes() throws {
        let rig = try Rig()
        let broker = try MosquittoBroker()
        let dashboard = try MQTTSubscriber(broker)
        let passwordFile = try rig.files.write("mqtt-password", MosquittoBroker.users["gateway"]! + "\n")
        // The phone's push-to-start token, registered with an earlier run of the same trace (kept in its state directory).
        let earlier = try ListeningBridge(["--speed", "1", "--control-bus", "none", "--sink", "stdout", rig.trace])
        _ = try earlier.activityID()
        #expect(try earlier.curl("PUT", "/v1/push-to-start-token", json: #"{"token":"\#(APNsSinkTests.startToken)"}"#).status == 200)
        #expect(earlier.stop() == 143)

        let listening = try ListeningBridge(["--speed", "10", "--control-bus", "none", "--sink", "stdout"] + rig.apnsFlags + [
            "--sink", broker.url, "--mqtt-username", "gateway", "--mqtt-password-file", passwordFile, "--mqtt-gateway", "gym", rig.trace,
        ], files: earlier.files)
        let bridge = listening.bridge
        #expect(bridge.wait(timeout: 20) { !rig.broadcasts.isEmpty }, "\(bridge.log)")
        let channel = try #require(rig.broadcasts.first?.header("apns-channel-id"))
        let said = try listening.curl("GET", "/v1/straps/replay/channel")
        #expect(said.status == 200)
        #expect(said.json["channel"] as? String == channel && said.json["storagePolicy"] as? Int == 1, "\(said.body)")
        let activity = try #require(said.json["activity"] as? String)
        let listed = try listening.curl("GET", "/v1/activities").json["activities"] as? [[String: Any]]
        #expect(listed?.first?["channel"] as? String == channel)
        #expect(try listening.curl("GET", "/v1/straps/nobody/channel").status == 404)
        #expect(bridge.exitStatus(timeout: 60) == 0, "\(bridge.log)")
        #expect(try listening.validateExchanges() == "ok \(listening.exchanges.count)\n")

        let updates = bridge.outputLines.map(BridgeProcess.json)
        #expect(updates.first?["event"] as? String == "start" && updates.last?["event"] as? String == "end")
        let publishes = rig.lines.dropFirst(2).dropLast()
        #expect(rig.lines.prefix(2) == [Self.create, Self.pushToStart] && rig.lines.last == Self.delete
                    && !publishes.isEmpty && publishes.allSatisfy { $0 == Self.publish }, "\(rig.lines)\n\(bridge.log)")
        let start = APNsSinkTests.aps(try #require(rig.requests(Self.pushToStart).first))
        #expect(start["input-push-channel"] as? String == channel && start["input-push-token"] == nil)
        #expect((start["attributes"] as? [String: Any])?["bridgeActivityID"] as? String == activity)
        #expect(rig.broadcasts.allSatisfy { $0.header("apns-channel-id") == channel })
        let made = updates.dropFirst().compactMap { ($0["timestamp"] as? Double).map { Int($0) } }
        let published = rig.broadcasts.compactMap { APNsSinkTests.aps($0)["timestamp"] as? Int }
        #expect(published == published.sorted() && Set(published).count == published.count && Set(published).isSubset(of: made)
                    && published.last == made.last, "the updates and the end, in order, each once: \(published) of \(made)")
        #expect(rig.requests(Self.delete).first?.header("apns-channel-id") == channel)
        let channelFiles = (try? FileManager.default.contentsOfDirectory(atPath: listening.files.path("state/channels"))) ?? []
        #expect(channelFiles.isEmpty, "nothing left to delete")

        let topic = "hrbridge/gym/replay/channel"
        #expect(dashboard.wait(timeout: 10) { $0.filter { $0.topic == topic }.count >= 3 }, "\(dashboard.messages)")
        let announced = dashboard.messages(on: topic).map(\.payload)
        #expect(announced == [#"{"channel":"\#(channel)","storagePolicy":1,"activity":"\#(activity)"}"#,
                              #"{"channel":"\#(channel)","storagePolicy":1}"#, ""], "retained while it exists, cleared once deleted")
        // Retained as published (the dashboard subscribes with retain-as-published): a phone that
        // subscribes later finds the channel, and the empty retained message clears it.
        #expect(dashboard.messages(on: topic).map(\.retained) == [true, true, true], "\(dashboard.messages(on: topic))")
    }

    /// A stop and a restart keep the channel (not created twice: the next start joins the same one);
    /// a crash leaves it with its activity on it, and `hrbridge recover` ends that activity on the
    /// channel and then deletes it.
    @Test func aRestartKeepsTheChannelAndRecoverDeletesWhatACrashLeft() throws {
        let rig = try Rig()
        let startToken = try rig.files.write("start-token.hex", APNsSinkTests.startToken + "\n")
        let (state, spool) = (rig.files.path("state"), rig.files.path("spool"))
        let run = ["replay", "--speed", "10", "--from-now", "--state-dir", state, "--spool", spool, "--control-bus", "none",
                   "--sink", "stdout"] + rig.apnsFlags + ["--apns-start-token-file", startToken, rig.trace]
        let first = try BridgeProcess(run)
        #expect(first.wait(timeout: 20) { rig.broadcasts.count >= 2 }, "\(first.log)")
        first.send(SIGTERM)
        #expect(first.exitStatus(timeout: 30) == 143, "\(first.log)")
        #expect(APNsSinkTests.aps(try #require(rig.broadcasts.last))["event"] as? String == "end")
        #expect(first.log.contains("stays, to be deleted after"), "\(first.log)")
        let channel = try #require(rig.broadcasts.first?.header("apns-channel-id"))

        let second = try BridgeProcess(run)
        #expect(second.wait(timeout: 20) { rig.requests(Self.pushToStart).count == 2 && rig.broadcasts.count >= first.outputLines.count + 1 },
                "\(second.log)")
        second.send(SIGKILL)
        _ = second.exitStatus(timeout: 10)
        #expect(rig.requests(Self.create).count == 1, "the restart joined the channel it had")
        #expect(rig.requests(Self.pushToStart).map { APNsSinkTests.aps($0)["input-push-channel"] as? String } == [channel, channel])
        #expect(second.log.contains("is published on channel \(channel), kept from the strap's activity before it"), "\(second.log)")
        #expect(rig.requests(Self.delete).isEmpty)

        let recover = try BridgeProcess(["recover", "--state-dir", state, "--spool", spool, "--sink", "stdout"] + rig.apnsFlags)
        #expect(recover.exitStatus(timeout: 30) == 0, "\(recover.log)")
        let end = APNsSinkTests.aps(try #require(rig.broadcasts.last))
        #expect(end["event"] as? String == "end")
        #expect(rig.broadcasts.last?.header("apns-channel-id") == channel)
        #expect(rig.lines.suffix(2) == [Self.publish, Self.delete], "the end first, then the delete")
        #expect(rig.requests(Self.delete).map { $0.header("apns-channel-id") } == [channel])
        #expect(recover.log.contains("deleted broadcast channel \(channel)"), "\(recover.log)")
    }

    /// A stopped run's activities all ended, so it keeps no state file, but its channel waits out the
    /// end's dismissal window in the channel file: `hrbridge recover` deletes it all the same.
    @Test func recoverDeletesTheChannelAStoppedRunLeftWaiting() throws {
        let rig = try Rig()
        let (state, spool) = (rig.files.path("state"), rig.files.path("spool"))
        let run = try BridgeProcess(["replay", "--speed", "10", "--from-now", "--state-dir", state, "--spool", spool,
                                     "--control-bus", "none", "--sink", "stdout"] + rig.apnsFlags + [rig.trace])
        #expect(run.wait(timeout: 20) { rig.broadcasts.count >= 2 }, "\(run.log)")
        run.send(SIGTERM)
        #expect(run.exitStatus(timeout: 30) == 143, "\(run.log)")
        #expect(run.log.contains("stays, to be deleted after"), "\(run.log)")
        let channel = try #require(rig.broadcasts.first?.header("apns-channel-id"))
        let stateFiles = (try? FileManager.default.contentsOfDirectory(atPath: state + "/activities")) ?? []
        #expect(!stateFiles.contains { $0.hasSuffix(".json") }, "every activity ended: \(stateFiles)")
        #expect(rig.requests(Self.delete).isEmpty)

        let recover = try BridgeProcess(["recover", "--state-dir", state, "--spool", spool, "--sink", "stdout"] + rig.apnsFlags)
        #expect(recover.exitStatus(timeout: 30) == 0, "\(recover.log)")
        #expect(rig.requests(Self.delete).map { $0.header("apns-channel-id") } == [channel])
        #expect(recover.log.contains("deleted broadcast channel \(channel)"), "\(recover.log)")
        let channelFiles = (try? FileManager.default.contentsOfDirectory(atPath: state + "/channels")) ?? []
        #expect(channelFiles.isEmpty, "\(channelFiles)")
    }

    /// A sink that does both: the activity's own token (the app started it) gets the start's state,
    /// updates and the end; the channel gets updates and the end, one publish each. Each path has its
    /// own queue: an update it could not send yet may be superseded there by a newer one (a loaded
    /// machine), but each sends in order, none twice, only what the run made, and both the end.
    @Test func theTokenPathAndTheChannelEachCarryEveryUpdate() throws {
        let rig = try Rig()
        let deviceToken = try rig.files.write("device-token.hex", APNsSinkTests.deviceToken + "\n")
        let bridge = try BridgeProcess(["replay", "--speed", "20", "--state-dir", rig.files.path("state"), "--control-bus", "none",
                                        "--sink", "stdout"] + rig.apnsFlags + ["--apns-device-token-file", deviceToken, rig.trace])
        #expect(bridge.exitStatus(timeout: 60) == 0, "\(bridge.log)")
        let made = bridge.outputLines.map(BridgeProcess.json).compactMap { ($0["timestamp"] as? Double).map { Int($0) } }
        let toToken = rig.requests("POST /3/device/\(APNsSinkTests.deviceToken)").compactMap { APNsSinkTests.aps($0)["timestamp"] as? Int }
        let published = rig.broadcasts.compactMap { APNsSinkTests.aps($0)["timestamp"] as? Int }
        for (path, sent) in [("the token path", toToken), ("the channel", published)] {
            #expect(sent == sent.sorted() && Set(sent).count == sent.count && Set(sent).isSubset(of: made),
                    "\(path): in order, each once, only what the run made: \(sent) of \(made)")
            #expect(sent.last == made.last, "\(path): the end")
        }
        #expect(toToken.first == made.first, "the token path: the start's state")
        #expect(rig.requests(Self.create).count == 1 && rig.requests(Self.delete).count == 1, "\(rig.lines)")
    }
}
