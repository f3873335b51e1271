@testable import CLI
@testable import Config
import Forwarding
import Testing
import SinkVocabulary

/// Each sink kind is described once (`SinkKinds.all`): these check that the command line and the
/// configuration file made from the descriptions say the same, for every option of every kind, so a
/// new kind or option cannot reach one and miss the other.
@Suite struct SinkVocabularyTests {
    /// A valid value for each option's key (`kind.key` where kinds differ). A new option without one
    /// fails `everyOptionHasASample`.
    static let samples: [String: String] = [
        "airship.server": "eu",
        "path": "/var/log/hrbridge/updates.ndjson",
        "url": "https://activities.example.org/v1",
        "token": "/etc/hrbridge/lifecycle-token",
        "key": "/etc/hrbridge/AuthKey.p8",
        "keyID": "ABC123DEFG",
        "teamID": "DEF123GHIJ",
        "bundleID": "com.example.Workout",
        "server": "sandbox",
        "deviceToken": "/etc/hrbridge/device-token",
        "pushToStartToken": "/etc/hrbridge/start-token",
        "relevanceScore": "50",
        "activityIDAttribute": "bridgeActivityID",
        "broadcast": "1",
        "appKey": "ISex_TTJRuarzs9-o_Gkhg",
        "masterSecret": "/etc/hrbridge/airship-master-secret",
        "channel": "9c36e8c7-5a73-47c0-9716-99fd3d4197d5",
        "activityName": "treadmill",
        "payloadKey": "workout",
        "maxPerHour": "4",
        "serviceAccount": "/etc/hrbridge/service-account.json",
        "project": "hrbridge-test",
        "fcm.server": "google",
        "registrationToken": "/etc/hrbridge/fcm-token",
        "topic": "workouts",
        "mqtt.url": "mqtts://broker.example.org:8883",
        "clientID": "hrbridge-gym-1",
        "username": "gateway-1",
        "password": "/etc/hrbridge/mqtt-password",
        "ca": "/etc/hrbridge/mqtt-ca.pem",
        "clientCertificate": "/etc/hrbridge/mqtt-client.pem",
        "clientKey": "/etc/hrbridge/mqtt-client-key.pem",
        "keepAlive": "30",
        "gateway": "room-2",
        "prefix": "gym/hrbridge/room-2",
        "control": "true",
        "discovery": "true",
        "name": "Gym HR 1",
        "adapter": "hci1",
    ]

    static func sample(_ kind: String, _ key: String) -> String? {
        samples[kind + "." + key] ?? samples[key]
    }

    @Test(arguments: SinkKinds.all.map(\.name))
    func everyOptionHasASample(kind: String) {
        for option in SinkKinds.named(kind)!.options { #expect(Self.sample(kind, option.key) != nil, "\(kind).\(option.key)") }
    }

    @Test func flagsAndKeysAreUnique() {
        let flags = SinkOptions.specOptions.map(\.name)
        #expect(Set(flags).count == flags.count, "\(flags)")
        for kind in SinkKinds.all {
            let keys = kind.ownOptions.flatMap(\.configKeys)
            #expect(Set(keys).count == keys.count && !keys.contains("type"), "\(kind.name): \(keys)")
            #expect(Set(kind.options.compactMap(\.sharedObject)).count <= 1, "\(kind.name) shares one object at most")
        }
        #expect(Set(SinkKinds.all.map(\.name)).count == SinkKinds.all.count)
    }

    /// Every option given on the command line and in the file reads to the same settings.
    @Test(arguments: SinkKinds.all.map(\.name))
    func theCommandLineAndTheFileAgree(kind name: String) throws {
        let kind = SinkKinds.named(name)!
        var argv = ["--sink", sinkArgument(kind)]
        var own: [String] = [#""type": "\#(name)""#]
        var shared: [String] = []
        // Of options that exclude each other, the first of each group.
        let excluded = Set(kind.atMostOne.flatMap { $0.dropFirst() })
        let given = kind.options.filter { !excluded.contains($0.key) }
        for option in given {
            let sample = Self.sample(name, option.key)!
            if let flag = option.flags.first {
                if case .toggle = option.value { argv.append(flag) } else { argv += [flag, sample] }
            }
            let member: String = switch option.value {
            case .number: #""\#(option.configKeys[0])": \#(sample)"#
            case .toggle: #""\#(option.configKeys[0])": true"#
            case let .numberInObject(field, _): #""\#(option.configKeys[0])": {"\#(field)": \#(sample)}"#
            default: #""\#(option.configKeys[0])": "\#(sample)""#
            }
            if option.sharedObject != nil { shared.append(member) } else { own.append(member) }
        }
        let parsed = try ParsedArguments(argv, spec: ReplayCommand.spec)
        let fromFlags = try SinkOptions.requested(parsed, spec: ReplayCommand.spec)

        let sharedObject = kind.sharedObject.map { #", "\#($0)": {\#(shared.joined(separator: ", "))}"# } ?? ""
        let json = #"{"straps": [{"name": "A", "workoutName": "Run", "sinks": [{\#(own.joined(separator: ", "))}]}]\#(sharedObject)}"#
        let configuration = try ConfigurationReader.read(Array(json.utf8), file: "c.json", kinds: SinkKinds.catalog)
        let fromFile = configuration.straps[0].sinks.map { sink in
            SinkSettings(kind: sink.kind, values: sink.values.merging(kind.sharedObject.flatMap { configuration.shared[$0] } ?? SinkValues()))
        }
        #expect(fromFlags == fromFile)
        #expect(fromFile[0].values.byKey.count == given.count, "every option read")

        // `config check` prints it back as it was read.
        let printed = ConfigurationReader.effectiveJSON(configuration, kinds: SinkKinds.catalog)
        #expect(try ConfigurationReader.read(Array(printed.utf8), file: "printed", kinds: SinkKinds.catalog) == configuration)
    }

    @Test func helpListsEveryKindAndFlag() {
        let help = ReplayCommand.spec.helpText
        for kind in SinkKinds.all { #expect(help.contains(kind.spelling)) }
        for flag in SinkKinds.all.flatMap({ $0.options.flatMap(\.flags) }) { #expect(help.contains("  \(flag) "), "\(flag)") }
    }

    private func sinkArgument(_ kind: SinkKind) -> String {
        switch kind.selector {
        case let .word(word): word
        case let .prefix(prefix, option): prefix + Self.sample(kind.name, option)!
        case let .url(_, option): Self.sample(kind.name, option)!
        case let .wordWithValue(word, option): word + ":" + Self.sample(kind.name, option)!
        }
    }
}
