import Testing
@testable import Forwarding

/// The pure rules of the strap's broadcast channels (`ChannelRegistry`), step by step, and its file.
@Suite struct ChannelRegistryTests {
    static let app = ChannelRegistry.App(managementURL: "https://api-manage-broadcast.push.apple.com:2196", bundleID: "com.example.a")
    static let sandbox = ChannelRegistry.App(managementURL: "https://api-manage-broadcast.sandbox.push.apple.com:2195", bundleID: "com.example.a")

    static func channel(_ id: String, _ activity: String?, deleteAfter: Int64? = nil, app: ChannelRegistry.App = app,
                        policy: MessageStoragePolicy = .mostRecentMessageStored) -> ChannelRegistry.Channel {
        ChannelRegistry.Channel(id: id, app: app, storagePolicy: policy, createdAt: 100, activity: activity, deleteAfter: deleteAfter)
    }

    /// A start takes its own channel, else a free one of its app and policy (not one being deleted),
    /// else none: a new one must be made.
    @Test(arguments: [
        ([channel("QQ==", "a-1")], "a-1", Set<String>(), "QQ=="),
        ([channel("QQ==", nil, deleteAfter: 500)], "a-2", [], "QQ=="),
        ([channel("QQ==", "a-1")], "a-2", [], nil),
        ([channel("QQ==", nil, deleteAfter: 500)], "a-2", ["QQ=="], nil),
        ([channel("QQ==", nil, app: sandbox)], "a-2", [], nil),
        ([channel("QQ==", nil, policy: .noMessageStored)], "a-2", [], nil),
        ([channel("QQ==", nil), channel("Qg==", nil)], "a-2", [], "Qg=="),
    ] as [([ChannelRegistry.Channel], String, Set<String>, String?)])
    func aStartTakes(channels: [ChannelRegistry.Channel], activity: String, deleting: Set<String>, taken: String?) {
        var registry = ChannelRegistry(channels: channels)
        let got = registry.take(for: activity, app: Self.app, policy: .mostRecentMessageStored, excluded: deleting)
        #expect(got?.id == taken)
        if let taken {
            let now = registry.channels.first { $0.id == taken }
            #expect(now?.activity == activity && now?.deleteAfter == nil, "taken: on it, its deletion off")
        }
    }

    @Test func anEndFreesItsChannelForDeletionAfterItsDismissalAndAReplacementForgetsTheGoneOne() {
        var registry = ChannelRegistry()
        registry.created("QQ==", for: "a-1", app: Self.app, policy: .mostRecentMessageStored, at: 100)
        #expect(registry.current?.activity == "a-1")
        registry.created("Qg==", for: "a-1", app: Self.app, policy: .mostRecentMessageStored, at: 110, replacing: "QQ==")
        #expect(registry.channels.map(\.id) == ["Qg=="])
        registry.ended(activity: "a-1", app: Self.app, deleteAfter: 2000)
        #expect(registry.due(app: Self.app, at: 1999).isEmpty)
        #expect(registry.due(app: Self.app, at: 2000).map(\.id) == ["Qg=="])
        #expect(registry.nextDeletion(app: Self.app) == 2000)
        #expect(registry.nextDeletion(app: Self.app, excluding: ["Qg=="]) == nil)
        #expect(registry.due(app: Self.sandbox, at: 9999).isEmpty, "another environment's are not this app's")
        registry.deleted("Qg==")
        #expect(registry.current == nil)
    }

    /// `recover`: every channel is due now but one whose activity's end still waits on the path.
    @Test func retiringLeavesOnlyWhatAnEndIsStillOwedOn() {
        var registry = ChannelRegistry(channels: [
            Self.channel("QQ==", "a-1"), Self.channel("Qg==", "a-2"), Self.channel("Qw==", nil, deleteAfter: 9000),
        ])
        registry.retire(app: Self.app, keeping: ["a-2"], at: 500)
        #expect(registry.due(app: Self.app, at: 500).map(\.id) == ["QQ==", "Qw=="])
        #expect(registry.channel(of: "a-2", app: Self.app)?.deleteAfter == nil)
    }

    @Test func theFileReadsBackAndNamesWhatIsWrong() throws {
        let registry = ChannelRegistry(channels: [Self.channel("aHJicmlkZ2U=", "a-1"), Self.channel("Qg==", nil, deleteAfter: 2000, policy: .noMessageStored)])
        #expect(try ChannelRegistry(decoding: registry.encoded()) == registry)
        for (text, message) in [
            (#"{"version":2,"channels":[]}"#, "version: expected 1, got 2"),
            (#"{"version":1,"channels":[{"channel":"<html>","managementServer":"x","bundleID":"b","storagePolicy":1,"createdAt":1}]}"#,
             #"channels[0].channel: expected a base64 channel id, got "<html>""#),
            (#"{"version":1,"channels":[{"channel":"QQ==","managementServer":"x","bundleID":"b","storagePolicy":7,"createdAt":1}]}"#,
             "channels[0].storagePolicy: expected 0 or 1, got 7"),
        ] {
            #expect(throws: ChannelFileError(message: message)) { try ChannelRegistry(decoding: Array(text.utf8)) }
        }
    }

    @Test(arguments: [("QQ==", true), ("aHJi-_+/=", true), ("", false), ("a b", false), ("\"", false), (String(repeating: "A", count: 257), false)])
    func aChannelIDIsBase64(text: String, accepted: Bool) {
        #expect(ChannelRegistry.isChannelID(text) == accepted)
    }
}
