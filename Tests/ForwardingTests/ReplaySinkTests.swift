import Foundation
import ProcessTestSupport
import TestSupport
import Testing
@testable import CLI
@testable import Forwarding

/// `hrbridge replay --sink …` in-process, with the bundled 64-minute trace and real servers.
@Suite(.timeLimit(.minutes(1))) struct ReplaySinkTests {
    struct Result {
        let status: ExitCode
        let output: String
        let log: String
    }

    static func replay(_ arguments: [String]) -> Result {
        let console = Console(output: .memory(), log: .memory(), input: { [] })
        let status = HRBridge.run(["replay", "--fast"] + arguments, console: console)
        return Result(status: status, output: console.output.text, log: console.log.text)
    }

    @Test func fileSinkAppendsExactlyWhatStdoutPrints() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("updates.ndjson")
        let plain = Self.replay([])
        #expect(plain.status == .success)
        let both = Self.replay(["--sink", "stdout", "--sink", "file:\(path)"])
        #expect(both.output == plain.output)
        _ = Self.replay(["--sink", "file:\(path)"])
        let written = try String(contentsOfFile: path, encoding: .utf8)
        #expect(written == plain.output + plain.output, "a second run appends")
        #expect(plain.output.split(separator: "\n").count > 10)
    }

    @Test func lifecycleSinkDeliversTheWholeRunInOrderWithTheTokenFromTheEnvironment() throws {
        let server = try ServerProcess(script: "scripted_http_server.py", arguments: ["[]"])
        let spool = try TemporaryDirectory()
        setenv("HRBRIDGE_TEST_REPLAY_TOKEN", "replay-secret", 1)
        let result = Self.replay(["--sink", server.baseURL + "/hooks", "--token-env", "HRBRIDGE_TEST_REPLAY_TOKEN",
                                  "--spool", spool.url.path])
        #expect(result.status == .success)
        #expect(result.output.isEmpty, "only the lifecycle sink was asked for")
        let expected = Self.replay([]).output.split(separator: "\n").map(String.init)
        let received = server.requests()
        // The replay outruns the server, so some updates were superseded; starts and ends all arrive.
        let sentBodies = received.compactMap(\.body)
        #expect(sentBodies.first == expected.first)
        #expect(sentBodies.last == expected.last)
        #expect(sentBodies.allSatisfy(expected.contains))
        let sequences = received.compactMap { $0.header("activity-sequence").flatMap(Int.init) }
        #expect(sequences == sequences.sorted())
        #expect(received.allSatisfy { $0.header("authorization") == "Bearer replay-secret" })
        #expect(result.log.contains("sink \(server.baseURL)/hooks done: sent \(received.count),"))
        #expect(!result.log.contains("replay-secret"))
    }

    @Test func statusLinesOnRequest() throws {
        let server = try ServerProcess(script: "scripted_http_server.py", arguments: ["[]"])
        let spool = try TemporaryDirectory()
        let result = Self.replay(["--sink", "stdout", "--sink", server.baseURL, "--sink-status", "0", "--spool", spool.url.path])
        let statusLines = result.log.split(separator: "\n").filter { $0.hasPrefix("hrbridge: sink \(server.baseURL) status: sent ") }
        #expect(statusLines.count == result.output.split(separator: "\n").count, "one status line per update with --sink-status 0")
        #expect(result.log.contains("hrbridge: sink stdout done: sent \(result.output.split(separator: "\n").count),"))
    }

    @Test func apnsSinkFromTheCommandLine() throws {
        let certificates = try TestCertificates.make()
        let server = try ServerProcess(script: "h2_push_server.py", arguments: [certificates.serverCertificate, certificates.serverKey, "[]"])
        let directory = try TemporaryDirectory()
        let key = try TestCertificates.makeAPNsKey(in: directory)
        let token = String(repeating: "0f", count: 32)
        let tokenFile = try directory.write("device-token", token.uppercased() + "\n")
        let result = Self.replay(["--sink", "apns", "--apns-server", "https://127.0.0.1:\(server.port)", "--ca-file", certificates.caFile,
                                  "--apns-key-file", key, "--apns-key-id", "KEY1234567", "--apns-team-id", "TEAM123456",
                                  "--apns-bundle-id", "com.example.hrbridge", "--apns-device-token-file", tokenFile,
                                  "--spool", directory.path("spool")])
        #expect(result.status == .success, "\(result.log)")
        let received = server.requests()
        #expect(received.count >= 2)
        #expect(received.allSatisfy { $0.alpn == "h2" && $0.header(":path") == "/3/device/\(token)" })
        #expect(received.first?.header("apns-priority") == "10")
        #expect((received.last?.jsonBody?["aps"] as? [String: Any])?["event"] as? String == "end")
        #expect(result.log.contains("sink apns done: sent \(received.count),"))
    }

    @Test(arguments: [
        (["--sink", "ftp://example.com"], "--sink 'ftp://example.com': expected stdout, file:PATH, http://… or https://…, apns"),
        (["--sink", "https://user:pw@example.com/hooks"], "--sink 'https://user:pw@example.com/hooks': no credentials in the URL"),
        (["--sink", "apns"], "--sink apns needs --apns-key-file"),
        (["--token-file", "a", "--token-env", "B", "--sink", "http://127.0.0.1:9/x"], "--token-file and --token-env exclude each other"),
        // The command line checks what the configuration file checks: both come from the sink kind's options.
        (["--sink", "apns", "--apns-key-file", "k", "--apns-key-id", "K", "--apns-team-id", "TEAM123456", "--apns-bundle-id", "a.b",
          "--apns-device-token-env", "T"], "--apns-key-id 'K': expected 10 characters A-Z and 0-9 (as the developer account shows it), got \"K\""),
        (["--sink", "apns", "--apns-server", "ftp://push"], "--apns-server 'ftp://push': expected production, sandbox or an https URL"),
        (["--apns-key-id", "KEY1234567"], "--apns-key-id is for --sink apns or --sink apns-background, which is not given"),
        (["--airship-channel", "all"], "--airship-channel is for --sink airship, which is not given"),
        (["--sink", "apns", "--sink", "apns"], "--sink apns given more than once"),
    ])
    func badSinkFlagsExit64(arguments: [String], message: String) {
        let result = Self.replay(arguments)
        #expect(result.status == .usage)
        #expect(result.log.hasPrefix("hrbridge: " + message), "\(result.log)")
    }

    /// Tokens may be registered at run time, but not with `--fast`: no session is there to take them.
    @Test func aFastReplayNeedsAConfiguredToken() {
        let result = Self.replay(["--sink", "apns", "--apns-key-file", "k", "--apns-key-id", "KEY1234567", "--apns-team-id", "TEAM123456",
                                  "--apns-bundle-id", "a.b"])
        #expect(result.status == .dataError)
        #expect(result.log.hasPrefix("hrbridge: apns: no token to push to: give a device or push-to-start token"), "\(result.log)")
    }

    @Test func anUnreadableKeyFileIsNamed() {
        let result = Self.replay(["--sink", "apns", "--apns-key-file", "/nonexistent/AuthKey.p8", "--apns-key-id", "KEY1234567",
                                  "--apns-team-id", "TEAM123456", "--apns-bundle-id", "a.b", "--apns-device-token-env", "HRBRIDGE_TEST_TOKEN"])
        #expect(result.status == .noInput)
        #expect(result.log.contains("/nonexistent/AuthKey.p8: cannot read the APNs key file"))
    }

    @Test func aTokenFileThatIsNotHexIsNamed() throws {
        let directory = try TemporaryDirectory()
        let key = try TestCertificates.makeAPNsKey(in: directory)
        let token = try directory.write("token", "xyz\n")
        let result = Self.replay(["--sink", "apns", "--apns-key-file", key, "--apns-key-id", "KEY1234567",
                                  "--apns-team-id", "TEAM123456", "--apns-bundle-id", "a.b", "--apns-device-token-file", token])
        #expect(result.status == .dataError)
        #expect(result.log.contains("\(token): expected one line of hex digits (the APNs device token)"), "\(result.log)")
    }
}
