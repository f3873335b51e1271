@testable import Config
import Foundation
import TestSupport
import Testing
@testable import CLI
@testable import Session
@testable import Forwarding

/// Sinks built from the configuration file's values (what `run` uses), with secrets from files
/// named directly or as systemd credentials.
@Suite(.timeLimit(.minutes(1))) struct ConfiguredSinksTests {
    @Test func everyKindOfSinkFromTheConfiguration() throws {
        let lifecycle = try ServerProcess(script: "scripted_http_server.py", arguments: ["[]"])
        let certificates = try TestCertificates.make()
        let push = try ServerProcess(script: "h2_push_server.py", arguments: [certificates.serverCertificate, certificates.serverKey, "[]"])
        let credentials = try TemporaryDirectory()
        _ = try TestCertificates.makeAPNsKey(in: credentials, name: "hrbridge_apns-key") // systemd's directory-load name
        _ = try credentials.write("phone-token", "  ABCDEF0123456789\n")
        let tokenFile = try credentials.write("lifecycle-token", "from-a-file\n")
        let outputFile = credentials.path("updates.ndjson")

        let console = Console(output: .memory(), log: .memory(), input: { [] })
        let relay = SinkLogRelay()
        let context = ConfiguredSinks.Context(
            shared: ["apns": SinkValues(["key": .secret(.file(.credential("apns-key"))), "keyID": .text("KEY1234567"), "teamID": .text("TEAM123456"),
                                         "bundleID": .text("com.example.hrbridge"), "server": .text("https://127.0.0.1:\(push.port)")])],
            http: HTTPSettings(certificateAuthorityFile: certificates.caFile),
            environment: ["CREDENTIALS_DIRECTORY": credentials.url.path],
            spoolDirectory: credentials.path("spool"), console: console, flushEachLine: false, log: relay.log,
            source: "Polar H10", control: SinkControlRelay()
        )
        let sinks = try ConfiguredSinks.make([
            SinkSettings(kind: "stdout", values: SinkValues()),
            SinkSettings(kind: "file", values: SinkValues(["path": .text(outputFile)])),
            SinkSettings(kind: "lifecycle", values: SinkValues(["url": .text(lifecycle.baseURL), "token": .secret(.file(.path(tokenFile)))])),
            .apns(deviceToken: .credential("phone-token")),
        ], context: context)
        let set = SinkSet(sinks: sinks, relay: relay, console: console)
        let updates = SampleUpdates.activity(count: 2)
        for update in updates { try set.accept(update) }
        set.finish()

        #expect(console.output.text.split(separator: "\n").count == 2)
        #expect(try String(contentsOfFile: outputFile, encoding: .utf8) == console.output.text)
        #expect(lifecycle.requests().map { $0.header("authorization") } == ["Bearer from-a-file", "Bearer from-a-file"])
        #expect(push.requests().map { $0.header(":path") } == ["/3/device/abcdef0123456789", "/3/device/abcdef0123456789"])
        #expect(console.log.text.contains("sink apns done: sent 2,"))
    }

    @Test func aMissingCredentialOrABadTokenFileIsNamed() throws {
        let directory = try TemporaryDirectory()
        let badToken = try directory.write("token", "not hex\n")
        let key = try TestCertificates.makeAPNsKey(in: directory)
        let console = Console(output: .memory(), log: .memory(), input: { [] })
        func context(_ environment: [String: String]) -> ConfiguredSinks.Context {
            .init(shared: ["apns": SinkValues(["key": .secret(.file(.path(key))), "keyID": .text("KEY1234567"), "teamID": .text("TEAM123456"),
                                               "bundleID": .text("com.example.a"), "server": .text("sandbox")])],
                  http: HTTPSettings(), environment: environment, spoolDirectory: directory.path("spool"), console: console,
                  flushEachLine: false, log: SinkLogRelay().log)
        }
        #expect(throws: SessionError.self) {
            try ConfiguredSinks.make([.apns(deviceToken: .credential("phone"))], context: context([:]))
        }
        do {
            _ = try ConfiguredSinks.make([.apns(deviceToken: .path(badToken))], context: context([:]))
            Issue.record("a token that is not hex was accepted")
        } catch {
            #expect(error.message == "\(badToken): expected one line of hex digits (the APNs device token)")
        }
    }
}

private extension SinkSettings {
    static func apns(deviceToken: FileReference) -> SinkSettings {
        SinkSettings(kind: "apns", values: SinkValues(["deviceToken": .secret(.file(deviceToken))]))
    }
}
