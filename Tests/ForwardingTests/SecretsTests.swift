import BusTestSupport
import Foundation
import ProcessTestSupport
import TestSupport
import Testing

/// Every network sink run with its secrets (issue 15, Deliver 5): a lifecycle bearer token from a
/// file, an APNs team key (.p8) signing ES256 provider tokens, device tokens from files under a
/// configuration. None of them may show in the running process's argv (/proc/PID/cmdline), its
/// stderr, the state file, the spool, or `config check`. The servers are real (HTTP/1.1 and HTTP/2
/// over TLS on 127.0.0.1) and go away before the stop, so the ends are spooled and the spool is checked.
@Suite(.serialized, .timeLimit(.minutes(2))) struct SecretsTests {
    static let bearer = "hrbridge-secret-bearer-5c1f0e9a77d2"

    final class Rig {
        let directory = try! TemporaryDirectory()
        let certificates: TestCertificates
        let lifecycle: ServerProcess
        let push: ServerProcess
        let keyPath: String
        let tokenPath: String
        var state: String { directory.path("state") }
        var spool: String { directory.path("spool") }

        init() throws {
            certificates = try TestCertificates.make()
            lifecycle = try ServerProcess(script: "scripted_http_server.py", arguments: ["[]"])
            push = try ServerProcess(script: "h2_push_server.py", arguments: [certificates.serverCertificate, certificates.serverKey, "[]"])
            keyPath = try TestCertificates.makeAPNsKey(in: directory)
            tokenPath = try directory.write("lifecycle-token", SecretsTests.bearer + "\n")
        }

        /// The strings that must never leak: the bearer token, the key's base64 body (whole and line
        /// by line), and every provider token (JWT) the push server was sent, whole and its signature.
        func secrets() throws -> [String] {
            let pem = try String(contentsOfFile: keyPath, encoding: .utf8)
            let body = pem.split(separator: "\n").filter { !$0.hasPrefix("-----") }.map(String.init)
            let jwts = push.requests().compactMap { $0.header("authorization") }.map { String($0.dropFirst("bearer ".count)) }
            #expect(!jwts.isEmpty, "the push server got provider tokens")
            #expect(lifecycle.requests().first?.header("authorization") == "Bearer \(SecretsTests.bearer)", "the server got the token")
            return [SecretsTests.bearer, body.joined()] + body.filter { $0.count >= 16 } + jwts + jwts.compactMap { $0.split(separator: ".").last.map(String.init) }
        }

        /// The running bridge's argv, its state files, then (after it stopped) its stderr and spool.
        func expectNoSecret(in places: [(String, String)]) throws {
            let secrets = try secrets()
            for (place, text) in places {
                for secret in secrets { #expect(!text.contains(secret), "\(place) holds a secret (\(secret.prefix(12))…)") }
            }
        }

        static func contents(of directory: String) -> [(String, String)] {
            let names = (try? FileManager.default.subpathsOfDirectory(atPath: directory)) ?? []
            return names.compactMap { name in
                FileManager.default.contents(atPath: "\(directory)/\(name)").map { ("\(directory)/\(name)", String(decoding: $0, as: UTF8.self)) }
            }
        }

        /// Runs `bridge` until its start reached both servers, notes argv and the state files, takes
        /// the servers away, stops it (the ends are spooled) and checks everything it left.
        func check(_ bridge: BridgeProcess) throws {
            #expect(bridge.wait(timeout: 30) { !lifecycle.requests().isEmpty && !push.requests().isEmpty }, "\(bridge.log)")
            let cmdline = try Data(contentsOf: URL(fileURLWithPath: "/proc/\(bridge.process.processIdentifier)/cmdline"))
            let argv = String(decoding: cmdline.map { $0 == 0 ? UInt8(ascii: " ") : $0 }, as: UTF8.self)
            #expect(argv.contains("hrbridge"))
            let stateWhileRunning = Self.contents(of: state)
            #expect(stateWhileRunning.contains { $0.0.hasSuffix(".json") && $0.1.contains("\"sinks\"") }, "the state file was read")
            lifecycle.stop()
            push.stop()
            bridge.send(SIGTERM)
            #expect(bridge.exitStatus(timeout: 30) == 143, "\(bridge.log)")
            let spooled = Self.contents(of: spool)
            #expect(spooled.count == 2 && spooled.allSatisfy { $0.1.contains("\"event\":\"end\"") }, "both sinks spooled their end")
            #expect(bridge.log.contains("spooled"))
            try expectNoSecret(in: [("argv", argv), ("stderr", bridge.log), ("stdout", bridge.output)] + stateWhileRunning + spooled)
        }
    }

    @Test func replayWithEverySinkFromFlagsLeaksNoSecret() throws {
        let rig = try Rig()
        let trace = try BridgeProcess.climbingTrace(in: rig.directory)
        let deviceToken = String(repeating: "ab12", count: 16)
        let devicePath = try rig.directory.write("device-token", deviceToken + "\n")
        let bridge = try BridgeProcess([
            "replay", "--speed", "1", "--from-now", "--state-dir", rig.state, "--spool", rig.spool, "--sink-grace", "1",
            "--sink", rig.lifecycle.baseURL, "--token-file", rig.tokenPath,
            "--sink", "apns", "--apns-server", "https://127.0.0.1:\(rig.push.port)", "--ca-file", rig.certificates.caFile,
            "--apns-key-file", rig.keyPath, "--apns-key-id", "KEY1234567", "--apns-team-id", "TEAM123456",
            "--apns-bundle-id", "com.example.hrbridge", "--apns-device-token-file", devicePath, trace,
        ])
        try rig.check(bridge)
        // The device token comes from a file like every secret; logs show its first 8 characters.
        #expect(!bridge.log.contains(deviceToken) && bridge.log.contains("ab12ab12…"), "\(bridge.log)")
    }

    @Test func runWithEverySinkFromTheConfigurationLeaksNoSecret() throws {
        let rig = try Rig()
        let deviceToken = String(repeating: "9f8e", count: 16)
        let devicePath = try rig.directory.write("device-token", deviceToken + "\n")
        let config = try rig.directory.write("config.json", """
        {"straps": [{"address": "F1:5A:17:00:00:01", "workoutName": "Run", "sinks": [
           {"type": "lifecycle", "url": "\(rig.lifecycle.baseURL)", "tokenFile": "\(rig.tokenPath)"},
           {"type": "apns", "deviceTokenFile": "\(devicePath)"}]}],
         "apns": {"keyFile": "\(rig.keyPath)", "keyID": "KEY1234567", "teamID": "TEAM123456", "bundleID": "com.example.hrbridge",
                  "server": "https://127.0.0.1:\(rig.push.port)"},
         "http": {"certificateAuthorityFile": "\(rig.certificates.caFile)"}}
        """)
        let check = try BridgeProcess(["config", "check", "--config", config])
        #expect(check.exitStatus(timeout: 20) == 0, "\(check.log)")
        #expect(check.output.contains(rig.tokenPath) && check.output.contains(rig.keyPath), "names the files")

        let bus = try PrivateBus()
        let fake = try ChildProcess(Peers.python, [Peers.path("fake_bluez.py"), "--interval", "100"], environment: bus.environment).start()
        defer { fake.stop() }
        let bridge = try BridgeProcess(["run", "--config", config, "--state-dir", rig.state, "--spool", rig.spool, "--sink-grace", "1"],
                                       environment: bus.environment)
        try rig.check(bridge)
        // The device token is the push's address, so the spooled request's path holds it (it must,
        // to be delivered later); it appears nowhere else.
        try rig.expectNoSecret(in: [("config check", check.output + check.log)])
        for (place, text) in [("argv/stderr", bridge.log), ("stdout", bridge.output), ("config check", check.output + check.log)] {
            #expect(!text.contains(deviceToken), "\(place) holds the device token")
        }
    }
}
