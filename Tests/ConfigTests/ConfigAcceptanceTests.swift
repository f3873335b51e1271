import Foundation
import LiveState
import Sensors
import Testing
import TestSupport
@testable import Config
import Forwarding
import SinkVocabulary

@Suite struct ConfigAcceptanceTests {
    static let examplePath = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("udev/config.example.json").path

    @Test func readsTheShippedExample() throws {
        let configuration = try ConfigurationFile.load(path: Self.examplePath, kinds: SinkKinds.catalog)
        #expect(configuration.straps.count == 2)
        let first = configuration.straps[0]
        #expect(first.strap == .address("C8:5F:33:12:34:56"))
        #expect(first.distanceSensor == .name("Stryd 1A2B"))
        #expect(configuration.straps[1].distanceSensor == nil)
        #expect(first.activity == ActivitySettings(workoutName: "Treadmill run", intervalLabel: "Warm-up", activityIDPrefix: "hrbridge"))
        #expect(first.cadence.zoneBoundaries == [114, 133, 152, 171])
        #expect(configuration.straps[1].cadence.zoneBoundaries == [])
        #expect(first.sinks == [
            .standardOutput,
            .lifecycle(url: "https://activities.example.org/v1", token: .file(.credential("lifecycle-token"))),
            .apns(deviceToken: .credential("phone-activity-token")),
        ])
        #expect(configuration.straps[1].strap == .name("Polar H10 8C4E2A1B"))
        #expect(configuration.shared == ["apns": SinkValues([
            "key": .secret(.file(.credential("AuthKey.p8"))), "keyID": .text("ABC123DEFG"), "teamID": .text("DEF123GHIJ"),
            "bundleID": .text("com.example.Workout"), "server": .text("production"),
        ])])
    }

    @Test func aBikeSensorTakesItsWheel() throws {
        let json = #"{"straps": [{"name": "A", "distanceSensor": {"address": "f1:5a:17:00:00:03"}, "wheelCircumference": 2.105, "workoutName": "Ride", "sinks": [{"type": "stdout"}]}]}"#
        let strap = try ConfigurationReader.read(Array(json.utf8), file: "c.json", kinds: SinkKinds.catalog).straps[0]
        #expect(strap.distanceSensor == .address("F1:5A:17:00:00:03"))
        #expect(strap.distance == DistanceSettings(wheelCircumference: 2.105))
    }

    @Test func aFitnessMachineMayGiveTheHeartRate() throws {
        let json = #"{"straps": [{"name": "A", "distanceSensor": {"name": "Treadmill"}, "heartRateFrom": "machine", "workoutName": "Run", "sinks": [{"type": "stdout"}]}]}"#
        let strap = try ConfigurationReader.read(Array(json.utf8), file: "c.json", kinds: SinkKinds.catalog).straps[0]
        #expect(strap.distance == DistanceSettings(heartRateFrom: .machine))
    }

    @Test func strapCadenceOverridesTheFilesKeyByKey() throws {
        let json = #"""
        {"straps": [
          {"name": "A", "workoutName": "Run", "cadence": {"staleWindow": 90, "zoneBoundaries": [120, 140]}, "sinks": [{"type": "stdout"}]},
          {"name": "B", "workoutName": "Row", "sinks": [{"type": "stdout"}]}
        ], "cadence": {"staleWindow": 120, "minimumInterval": 2.5, "continueAfterTimeLimit": false}}
        """#
        let configuration = try ConfigurationReader.read(Array(json.utf8), file: "c.json", kinds: SinkKinds.catalog)
        var first = CadencePolicy()
        first.staleWindow = 90
        first.zoneBoundaries = [120, 140]
        first.minimumInterval = 2.5
        first.continueAfterTimeLimit = false
        var second = CadencePolicy()
        second.staleWindow = 120
        second.minimumInterval = 2.5
        second.continueAfterTimeLimit = false
        #expect(configuration.straps.map(\.cadence) == [first, second])
    }

    /// Each key set to a value other than the engine's default reaches the policy and is printed back.
    @Test func everyCadenceKeyReachesThePolicy() throws {
        let values: [JSONValue.Member] = [
            .init("smoothingWindow", .number("7")), .init("trendWindow", .number("25")), .init("trendHorizon", .number("12")),
            .init("changeThreshold", .number("8")), .init("artefactPatience", .number("6")), .init("artefactDrop", .number("9")),
            .init("distanceStep", .number("400")), .init("distanceLagPercent", .number("3")),
            .init("zoneHysteresis", .number("2")),
            .init("minimumInterval", .number("4.5")), .init("staleWindow", .number("240")), .init("refreshLead", .number("30")),
            .init("silenceTimeout", .number("12")), .init("noContactTimeout", .number("6")), .init("giveUpInterval", .number("900")),
            .init("activityTimeLimit", .number("14400")), .init("timeLimitMargin", .number("90")), .init("dismissalDelay", .number("900")),
            .init("urgentPerHour", .number("6")), .init("flapWindow", .number("300")),
            .init("updatesPerHour", .number("60")),
            .init("zoneBoundaries", .array([.number("110"), .number("130")])), .init("continueAfterTimeLimit", .bool(false)),
        ]
        #expect(values.map(\.key) == CadenceSection.keys)
        let defaults = CadenceSection.json(CadencePolicy())
        guard case let .object(defaultMembers) = defaults else { Issue.record("not an object"); return }
        for (value, byDefault) in zip(values, defaultMembers) { #expect(value != byDefault, "\(value.key) is its default") }

        let json = #"{"straps": [{"name": "A", "workoutName": "Run", "sinks": [{"type": "stdout"}]}], "cadence": "#
            + JSONWriter.pretty(.object(values)) + "}"
        let configuration = try ConfigurationReader.read(Array(json.utf8), file: "c.json", kinds: SinkKinds.catalog)
        #expect(CadenceSection.json(configuration.straps[0].cadence) == .object(values))
    }

    /// What `config check` prints reads back as the same configuration: it is the effective one.
    @Test func effectiveOutputReadsBackTheSame() throws {
        let configuration = try ConfigurationFile.load(path: Self.examplePath, kinds: SinkKinds.catalog)
        let printed = ConfigurationReader.effectiveJSON(configuration, kinds: SinkKinds.catalog)
        #expect(try ConfigurationReader.read(Array(printed.utf8), file: "printed", kinds: SinkKinds.catalog) == configuration)
    }

    @Test func secretsAreNamedNeverRead() throws {
        let directory = try TemporaryDirectory()
        let token = try directory.write("token", "s3cr3t-bearer-token")
        let key = try directory.write("key.p8", "-----BEGIN PRIVATE KEY-----\nTOPSECRET\n")
        let json = #"""
        {"straps": [{"name": "A", "workoutName": "Run", "sinks": [
           {"type": "lifecycle", "url": "https://x.example", "tokenFile": "\#(token)"},
           {"type": "lifecycle", "url": "https://y.example", "tokenEnvironment": "HRBRIDGE_TOKEN"},
           {"type": "apns", "pushToStartTokenFile": "\#(token)"}]}],
         "apns": {"keyFile": "\#(key)", "keyID": "ABC123DEFG", "teamID": "DEF123GHIJ", "bundleID": "com.example.Workout", "server": "sandbox"}}
        """#
        let printed = ConfigurationReader.effectiveJSON(try ConfigurationReader.read(Array(json.utf8), file: "c.json", kinds: SinkKinds.catalog), kinds: SinkKinds.catalog)
        #expect(printed.contains(token) && printed.contains(key) && printed.contains("HRBRIDGE_TOKEN"))
        #expect(!printed.contains("s3cr3t") && !printed.contains("TOPSECRET"))
    }

    /// An APNs sink without token files waits for the tokens the app registers at run time.
    @Test func anAPNsSinkMayHaveNoTokenFile() throws {
        let json = #"""
        {"straps": [{"name": "A", "workoutName": "Run", "sinks": [{"type": "apns", "activityIDAttribute": "none"}]}],
         "apns": {"keyFile": "/k.p8", "keyID": "ABC123DEFG", "teamID": "DEF123GHIJ", "bundleID": "com.example.Workout"}}
        """#
        let configuration = try ConfigurationReader.read(Array(json.utf8), file: "c.json", kinds: SinkKinds.catalog)
        #expect(configuration.straps[0].sinks == [SinkSettings(kind: "apns", values: SinkValues(["activityIDAttribute": .text("none")]))])
    }

    /// A value may start with a combining mark (U+0301) right after its quote, the "/" of a path or the
    /// ":" of credential:NAME: read by Unicode scalars, the mark does not merge with them.
    @Test func combiningMarksAtTheEdgesOfValuesStayApart() throws {
        let json = #"""
        {"straps": [{"name": "\u0301H10", "workoutName": "Run\u0301", "sinks": [
           {"type": "file", "path": "/\u0301updates"},
           {"type": "lifecycle", "url": "https://x.example", "tokenFile": "credential:\u0301token"}]}],
         "http": {"certificateAuthorityFile": "/\u0301ca.pem"}}
        """#
        let configuration = try ConfigurationReader.read(Array(json.utf8), file: "c.json", kinds: SinkKinds.catalog)
        let strap = configuration.straps[0]
        #expect(strap.strap == .name("\u{301}H10"))
        #expect(strap.activity.workoutName == "Run\u{301}")
        #expect(strap.sinks == [.file(path: "/\u{301}updates"), .lifecycle(url: "https://x.example", token: .file(.credential("\u{301}token")))])
        #expect(configuration.http.certificateAuthorityFile == "/\u{301}ca.pem")
    }

    @Test func credentialsResolveOnlyInsideTheService() throws {
        let reference = FileReference.credential("AuthKey.p8")
        let service = ["CREDENTIALS_DIRECTORY": "/run/credentials/hrbridge.service"]
        // The unit's directory load names the copy hrbridge_AuthKey.p8 ...
        #expect(try reference.resolvedPath(environment: service, exists: { _ in false })
            == "/run/credentials/hrbridge.service/hrbridge_AuthKey.p8")
        // ... a drop-in's LoadCredential=AuthKey.p8:/path names it AuthKey.p8, and that one wins.
        #expect(try reference.resolvedPath(environment: service, exists: { $0.hasSuffix("/AuthKey.p8") })
            == "/run/credentials/hrbridge.service/AuthKey.p8")
        #expect(throws: FileReference.Problem.self) { try reference.resolvedPath(environment: [:]) }
        #expect(try FileReference.path("/etc/k.p8").resolvedPath(environment: [:]) == "/etc/k.p8")
    }
}

/// The sinks these tests expect, as the reader makes them from a kind's options.
private extension SinkSettings {
    static let standardOutput = SinkSettings(kind: "stdout", values: SinkValues())

    static func file(path: String) -> SinkSettings {
        SinkSettings(kind: "file", values: SinkValues(["path": .text(path)]))
    }

    static func lifecycle(url: String, token: SecretSource) -> SinkSettings {
        SinkSettings(kind: "lifecycle", values: SinkValues(["url": .text(url), "token": .secret(token)]))
    }

    static func apns(deviceToken: FileReference) -> SinkSettings {
        SinkSettings(kind: "apns", values: SinkValues(["deviceToken": .secret(.file(deviceToken))]))
    }
}
