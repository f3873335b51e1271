@testable import Config
import Foundation
import LiveState
import ProcessTestSupport
import TestSupport
import Testing
@testable import CLI
@testable import Session
@testable import Forwarding
import SinkVocabulary
@testable import SessionState

/// Sinks built from settings (what the configuration file and the `--sink` flags both give), with
/// secrets from files named directly or as systemd credentials; an unknown kind is an error.
@Suite(.timeLimit(.minutes(1))) struct SinkSetMakeTests {
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
        let context = SinkSet.Context(
            spoolDirectory: credentials.path("spool"), environment: ["CREDENTIALS_DIRECTORY": credentials.url.path],
            console: console, flushEachLine: false
        )
        let set = try SinkSet.make([
            SinkSettings(kind: "stdout", values: SinkValues()),
            SinkSettings(kind: "file", values: SinkValues(["path": .text(outputFile)])),
            SinkSettings(kind: "lifecycle", values: SinkValues(["url": .text(lifecycle.baseURL), "token": .secret(.file(.path(tokenFile)))])),
            .apns(deviceToken: .credential("phone-token")),
        ], shared: ["apns": SinkValues(["key": .secret(.file(.credential("apns-key"))), "keyID": .text("KEY1234567"), "teamID": .text("TEAM123456"),
                                         "bundleID": .text("com.example.hrbridge"), "server": .text("https://127.0.0.1:\(push.port)")])],
           http: HTTPSettings(certificateAuthorityFile: certificates.caFile), source: "Polar H10", context: context)
        let updates = SampleUpdates.activity(count: 2)
        for update in updates { try set.accept(EncodedUpdate(update)) }
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
        let shared = ["apns": SinkValues(["key": .secret(.file(.path(key))), "keyID": .text("KEY1234567"), "teamID": .text("TEAM123456"),
                                          "bundleID": .text("com.example.a"), "server": .text("sandbox")])]
        let context = SinkSet.Context(spoolDirectory: directory.path("spool"), environment: [:], console: console, flushEachLine: false)
        #expect(throws: SessionError.self) {
            try SinkSet.make([.apns(deviceToken: .credential("phone"))], shared: shared, http: HTTPSettings(), source: nil, context: context)
        }
        #expect(throws: SessionError.self) {
            try SinkSet.make([SinkSettings(kind: "carrier-pigeon", values: SinkValues())], http: HTTPSettings(), source: nil, context: context)
        }
        do {
            _ = try SinkSet.make([.apns(deviceToken: .path(badToken))], shared: shared, http: HTTPSettings(), source: nil, context: context)
            Issue.record("a token that is not hex was accepted")
        } catch {
            #expect(error.message == "\(badToken): expected one line of hex digits (the APNs device token)")
        }
    }

    /// `--apns-broadcast`: its paths become sinks of their own (named apart in the state file, each
    /// owed its ends), the token path only where a token can come (a file's, or the app's at run time).
    @Test func aBroadcastingAPNsSinkIsOneSinkPerPath() throws {
        let directory = try TemporaryDirectory()
        let key = try TestCertificates.makeAPNsKey(in: directory)
        let token = try directory.write("token", String(repeating: "ab", count: 32) + "\n")
        let console = Console(output: .memory(), log: .memory(), input: { [] })
        let shared = ["apns": SinkValues(["key": .secret(.file(.path(key))), "keyID": .text("KEY1234567"), "teamID": .text("TEAM123456"),
                                          "bundleID": .text("com.example.a"), "server": .text("https://127.0.0.1:1")])]
        let context = SinkSet.Context(spoolDirectory: directory.path("spool"), environment: [:], console: console, flushEachLine: false)
        let broadcast = SinkValue.number(Double(MessageStoragePolicy.mostRecentMessageStored.rawValue))
        for (values, pushTokens, names) in [
            (SinkValues(["broadcast": broadcast]), nil as PushTokenBook?, ["apns-broadcast"]),
            (SinkValues(["broadcast": broadcast]), PushTokenBook(), ["apns", "apns-broadcast"]),
            (SinkValues(["broadcast": broadcast, "deviceToken": .secret(.file(.path(token)))]), nil, ["apns", "apns-broadcast"]),
            (SinkValues(["deviceToken": .secret(.file(.path(token)))]), nil, ["apns"]),
        ] {
            let set = try SinkSet.make([SinkSettings(kind: "apns", values: values)], shared: shared, http: HTTPSettings(), source: nil,
                                       pushTokens: pushTokens, context: context)
            #expect(set.names == names, "\(values)")
            set.finish()
        }
    }
}

private extension SinkSettings {
    static func apns(deviceToken: FileReference) -> SinkSettings {
        SinkSettings(kind: "apns", values: SinkValues(["deviceToken": .secret(.file(deviceToken))]))
    }
}
