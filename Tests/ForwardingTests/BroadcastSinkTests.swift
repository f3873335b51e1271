import Foundation
import ProcessTestSupport
import Sensors
import LiveState
import TestSupport
import Testing
@testable import Forwarding
@testable import SessionState

/// The APNs sink's broadcast path against the real HTTP/2 TLS test server (python3-h2), which
/// manages channels as APNs does (create, delete, publish to known ones): every request checked
/// against Apple's documented form ("Sending channel management requests to APNs", "Sending
/// broadcast push notification requests to APNs").
@Suite(.timeLimit(.minutes(1))) struct BroadcastSinkTests {
    static let bundleID = "com.example.hrbridge"
    static let channelsPath = "/1/apps/\(bundleID)/channels"
    static let broadcastPath = "/4/broadcasts/apps/\(bundleID)"

    final class Rig {
        let directory: TemporaryDirectory
        let certificates: TestCertificates
        let server: ServerProcess
        let keyPath: String
        let tokens: ProviderTokenSource
        let log = LogLines()

        init(answers: String = "[]") throws {
            directory = try TemporaryDirectory()
            certificates = try TestCertificates.make()
            server = try ServerProcess(script: "h2_push_server.py", arguments: [certificates.serverCertificate, certificates.serverKey, answers])
            keyPath = try TestCertificates.makeAPNsKey(in: directory)
            tokens = ProviderTokenSource(key: try SigningKey(contentsOfFile: keyPath), keyID: "KEY1234567", teamID: "TEAM123456")
        }

        func settings(startToken: Bool = true) -> APNsSinkSettings {
            APNsSinkSettings(baseURL: "https://127.0.0.1:\(server.port)", bundleID: BroadcastSinkTests.bundleID,
                             pushToStartToken: startToken ? APNsSinkTests.startToken : nil)
        }

        /// The broadcast path alone, on `channels`.
        func sink(_ channels: ChannelBook, policy: MessageStoragePolicy = .mostRecentMessageStored, startToken: Bool = true,
                  delivery: DeliveryWorker.Settings = FastDelivery.settings) -> NetworkSink {
            .apnsBroadcast(settings: settings(startToken: startToken), policy: policy, tokens: tokens, channels: channels, pushTokens: nil,
                           http: HTTPClientConfiguration(certificateAuthorityFile: certificates.caFile), settings: delivery,
                           spoolDirectory: nil, log: log.sink)
        }

        func requests(_ method: String, _ path: String) -> [RecordedRequest] {
            server.requests().filter { $0.header(":method") == method && $0.header(":path") == path }
        }

        var broadcasts: [RecordedRequest] { requests("POST", BroadcastSinkTests.broadcastPath) }
    }

    /// An update of `SampleUpdates`' activity whose dismissal (on an end) is `dismissal`.
    static func update(_ event: ActivityUpdate.Event, sequence: Int, heartRate: Int? = 120, dismissal: Date? = nil) -> ActivityUpdate {
        var update = SampleUpdates.update(event, sequence: sequence, heartRate: heartRate)
        if let dismissal { update.dismissalDate = Timestamp(unixSeconds: Int64(dismissal.timeIntervalSince1970.rounded(.up))) }
        return update
    }

    /// The `apns-…` headers a request carried, in order.
    static func apnsHeaders(_ request: RecordedRequest) -> [String] { request.headerNames().filter { $0.hasPrefix("apns-") } }

    static func seconds(_ time: Timestamp?) -> String? { time.map { String($0.microsecondsSinceUnixEpoch / 1_000_000) } }

    @Test func createThenAPushToStartJoiningItThenEveryUpdateOnItThenOneDeleteAfterTheDismissal() throws {
        let rig = try Rig()
        let channels = ChannelBook()
        let sink = rig.sink(channels)
        let dismissal = Date(timeIntervalSinceNow: 2)
        let updates = [
            Self.update(.start, sequence: 1),
            Self.update(.update, sequence: 2, heartRate: 131),
            Self.update(.update, sequence: 3, heartRate: nil),
            Self.update(.end, sequence: 4, heartRate: 128, dismissal: dismissal),
        ]
        // One at a time, as a live workout produces them (a backlog would let newer content supersede).
        for (index, update) in updates.enumerated() {
            try sink.accept(update)
            #expect(eventually { sink.counters.sent == index + 1 }, "\(rig.log.all)")
        }
        #expect(rig.requests("DELETE", Self.channelsPath).isEmpty, "not before the end's dismissal date")
        #expect(eventually { !rig.requests("DELETE", Self.channelsPath).isEmpty }, "\(rig.log.all)")
        #expect(Date() >= dismissal.addingTimeInterval(-1), "deleted once the dismissal date's second has come")
        sink.finish(grace: 5)

        let received = rig.server.requests()
        #expect(received.map { "\($0.header(":method") ?? "") \($0.header(":path") ?? "")" } == [
            "POST \(Self.channelsPath)", "POST /3/device/\(APNsSinkTests.startToken)",
            "POST \(Self.broadcastPath)", "POST \(Self.broadcastPath)", "POST \(Self.broadcastPath)", "DELETE \(Self.channelsPath)",
        ])
        // Create: the documented body, exactly; no push headers.
        let create = received[0]
        #expect(create.body == #"{"message-storage-policy":1,"push-type":"LiveActivity"}"#)
        #expect(create.header("content-type") == "application/json")
        #expect(Self.apnsHeaders(create).isEmpty)
        let channel = try #require(rig.requests("POST", Self.broadcastPath).first?.header("apns-channel-id"))
        #expect(Data(base64Encoded: channel) != nil, "a base64 channel id")
        // The push-to-start joins the new activity to the channel instead of asking for its token.
        let start = APNsSinkTests.aps(received[1])
        #expect(received[1].header("apns-topic") == "\(Self.bundleID).push-type.liveactivity")
        #expect(received[1].header("apns-push-type") == "liveactivity")
        #expect(received[1].header("apns-priority") == "10")
        #expect(start["event"] as? String == "start")
        #expect(start["input-push-channel"] as? String == channel)
        #expect(start["input-push-token"] == nil)
        #expect(start["attributes-type"] as? String == "WorkoutActivityAttributes")
        #expect((start["attributes"] as? [String: Any])?["bridgeActivityID"] as? String == "run-1")
        // Each update and the end: one publish on the channel, as a token's push but for the path and topic.
        for (request, update) in zip(received[2...4], updates[1...]) {
            #expect(request.alpn == "h2")
            #expect(request.header("apns-channel-id") == channel)
            #expect(request.header("apns-push-type") == "liveactivity")
            #expect(Self.apnsHeaders(request) == ["apns-push-type", "apns-channel-id", "apns-priority", "apns-expiration"],
                    "no apns-topic: the bundle id is in the path")
            #expect(request.header("apns-priority") == String(update.priority))
            #expect(request.header("apns-expiration") == Self.seconds(update.staleDate), "kept until stale on a channel that stores it")
            #expect(request.header("authorization")?.hasPrefix("bearer ") == true)
            let aps = APNsSinkTests.aps(request)
            #expect(aps["event"] as? String == (update.event == .end ? "end" : "update"))
            #expect(aps["timestamp"] as? Int == Int(Self.seconds(update.timestamp)!))
            #expect(aps["stale-date"] as? Int == Int(Self.seconds(update.staleDate)!))
            #expect(aps["dismissal-date"] as? Int == Self.seconds(update.event == .end ? update.dismissalDate : nil).flatMap { Int($0) })
            let state = try JSONDecoder().decode(PhoneContentState.self, from: JSONSerialization.data(withJSONObject: try #require(aps["content-state"])))
            #expect(state.heartRate == update.contentState.heartRate)
            #expect(state.timerRange == update.contentState.timerRange)
        }
        // Delete: the channel in its header, no body.
        let delete = received[5]
        #expect(delete.header("apns-channel-id") == channel)
        #expect(delete.body?.isEmpty ?? true)
        #expect(Self.apnsHeaders(delete) == ["apns-channel-id"])
        // Every request signed with the same provider token.
        #expect(Set(received.map { $0.header("authorization") }).count == 1)
        #expect(channels.snapshot.channels.isEmpty, "forgotten once deleted")
        #expect(rig.log.all.contains { $0.contains("created broadcast channel \(channel) (storage policy 1) for run-1") })
        #expect(rig.log.all.contains { $0.contains("deleted broadcast channel \(channel)") })
        #expect(sink.counters.sent == 4)
    }

    /// A channel that stores nothing takes `apns-expiration: 0` only (APNs refuses another with
    /// BadExpirationDate); without a push-to-start token no phone is started, the channel is still made.
    @Test func aChannelThatStoresNothingExpiresEachPushAtOnce() throws {
        let rig = try Rig()
        let sink = rig.sink(ChannelBook(), policy: .noMessageStored, startToken: false)
        for update in [Self.update(.start, sequence: 1), Self.update(.update, sequence: 2), Self.update(.end, sequence: 3)] {
            try sink.accept(update)
        }
        #expect(eventually { !rig.requests("DELETE", Self.channelsPath).isEmpty }, "the end's dismissal date is long past: deleted at once")
        sink.finish(grace: 5)
        #expect(rig.requests("POST", Self.channelsPath).map(\.body) == [#"{"message-storage-policy":0,"push-type":"LiveActivity"}"#])
        let pushesToTokens = rig.server.requests().filter { $0.header(":path")?.hasPrefix("/3/device/") == true }
        #expect(pushesToTokens.isEmpty)
        #expect(rig.broadcasts.map { $0.header("apns-expiration") } == ["0", "0"])
        #expect(rig.log.all.contains { $0.contains("no push-to-start token, so no phone is started on it") })
    }

    /// A channel deleted from outside: the next publish is answered ChannelNotRegistered, a new
    /// channel is made and said, and the same update goes once on it; nothing is lost or repeated.
    @Test func aChannelDeletedFromOutsideIsReplacedAndSaid() throws {
        let rig = try Rig(answers: #"[{"path": "\#(Self.broadcastPath)", "nth": 2, "status": 400, "reason": "ChannelNotRegistered"}]"#)
        let sink = rig.sink(ChannelBook())
        let updates = (1...5).map { sequence in
            Self.update(sequence == 1 ? .start : sequence == 5 ? .end : .update, sequence: sequence, heartRate: 100 + sequence)
        }
        for (index, update) in updates.enumerated() {
            try sink.accept(update)
            #expect(eventually { sink.counters.sent == index + 1 }, "\(rig.log.all)")
        }
        #expect(eventually { !rig.requests("DELETE", Self.channelsPath).isEmpty })
        sink.finish(grace: 5)
        let channels = rig.broadcasts.compactMap { $0.header("apns-channel-id") }
        let (first, second) = (try #require(channels.first), try #require(channels.last))
        #expect(first != second)
        #expect(channels == [first, first, second, second, second])
        #expect(rig.requests("POST", Self.channelsPath).count == 2)
        let delivered = rig.broadcasts.dropFirst(2).map { APNsSinkTests.aps($0)["timestamp"] as? Int }
        #expect([rig.broadcasts[0]].map { APNsSinkTests.aps($0)["timestamp"] as? Int } + delivered
            == updates.dropFirst().map { Int(Self.seconds($0.timestamp)!) }, "each update delivered once, in order")
        #expect(rig.requests("DELETE", Self.channelsPath).map { $0.header("apns-channel-id") } == [second], "the gone one is not deleted")
        #expect(rig.log.all.contains { $0.contains("created broadcast channel \(second) (storage policy 1) for run-1 in place of \(first), "
            + "which APNs no longer has (ChannelNotRegistered)") }, "\(rig.log.all)")
    }

    /// 5xx on the create, 429s and a 500 on publishing, a 503 on the delete: each waited out with
    /// backoff, then everything goes once, in order.
    @Test func throttlingAndServerErrorsAreWaitedOut() throws {
        let answers = #"""
        [{"path": "\#(Self.channelsPath)", "method": "POST", "nth": 1, "status": 503, "reason": "ServiceUnavailable"},
         {"path": "\#(Self.broadcastPath)", "nth": 1, "status": 429, "reason": "TooManyRequests"},
         {"path": "\#(Self.broadcastPath)", "nth": 2, "status": 429, "reason": "TooManyRequests"},
         {"path": "\#(Self.broadcastPath)", "nth": 3, "status": 500, "reason": "InternalServerError"},
         {"path": "\#(Self.channelsPath)", "method": "DELETE", "nth": 1, "status": 503, "reason": "ServiceUnavailable"}]
        """#
        let rig = try Rig(answers: answers)
        let sink = rig.sink(ChannelBook())
        try sink.accept(Self.update(.start, sequence: 1))
        try sink.accept(Self.update(.update, sequence: 2))
        try sink.accept(Self.update(.end, sequence: 3))
        #expect(eventually { rig.requests("DELETE", Self.channelsPath).count == 2 }, "\(rig.log.all)")
        sink.finish(grace: 5)
        #expect(rig.requests("POST", Self.channelsPath).count == 2, "the 503 tried again, one channel made")
        #expect(rig.broadcasts.map { APNsSinkTests.aps($0)["event"] as? String } == ["update", "update", "update", "update", "end"])
        #expect(sink.counters.retried == 4)
        #expect(sink.counters.sent == 3)
        #expect(rig.log.all.contains { $0.contains("not deleted yet, trying again: APNs 503 ServiceUnavailable") })
    }

    /// A 429 on the delete with `Retry-After: 1`: the next delete waits the second out, where the
    /// throttled backoff alone would try again after 0.05 s.
    @Test func aThrottledDeleteWaitsOutItsRetryAfter() throws {
        let answers = #"""
        [{"path": "\#(Self.channelsPath)", "method": "DELETE", "nth": 1, "status": 429, "reason": "TooManyRequests",
          "headers": {"retry-after": "1"}}]
        """#
        let rig = try Rig(answers: answers)
        let patient = DeliveryWorker.Settings(queueCapacity: 64, unreachable: RetrySchedule(initial: 0.05, cap: 0.2),
                                              throttled: RetrySchedule(initial: 0.05, cap: 5))
        let sink = rig.sink(ChannelBook(), delivery: patient)
        try sink.accept(Self.update(.start, sequence: 1))
        try sink.accept(Self.update(.end, sequence: 2))
        #expect(eventually { !rig.requests("DELETE", Self.channelsPath).isEmpty }, "\(rig.log.all)")
        let firstSeen = Date()
        #expect(eventually { rig.requests("DELETE", Self.channelsPath).count == 2 }, "\(rig.log.all)")
        let waited = Date().timeIntervalSince(firstSeen)
        sink.finish(grace: 5)
        #expect(waited >= 0.8, "the second delete came \(waited) s after the first")
        #expect(rig.log.all.contains { $0.contains("not deleted yet, trying again: APNs 429 TooManyRequests") }, "\(rig.log.all)")
        #expect(rig.log.all.contains { $0.contains("deleted broadcast channel") }, "\(rig.log.all)")
    }

    /// A restart: the channel file keeps the freed channel, the next run's start takes it (no second
    /// create) and leaves it there at its finish, its deletion still ahead.
    @Test func theNextRunReusesTheChannelItsFileKeeps() throws {
        let rig = try Rig()
        let state = rig.directory.path("state")
        let first = rig.sink(try ChannelFile.book(directory: state, key: "strap-test", warn: { _ in }))
        try first.accept(Self.update(.start, sequence: 1))
        try first.accept(Self.update(.end, sequence: 2, dismissal: Date(timeIntervalSinceNow: 3600)))
        #expect(eventually { rig.broadcasts.count == 1 })
        first.finish(grace: 2)
        #expect(rig.log.all.contains { $0.contains("stays, to be deleted after") }, "\(rig.log.all)")

        let book = try ChannelFile.book(directory: state, key: "strap-test", warn: { _ in })
        let channel = try #require(book.snapshot.channels.first)
        #expect(channel.isFree && channel.deleteAfter != nil)
        let second = rig.sink(book)
        try second.accept(SampleUpdates.update(.start, activity: "run-2", sequence: 1))
        #expect(eventually { rig.server.requests().count == 4 })
        second.finish(grace: 2)
        #expect(rig.requests("POST", Self.channelsPath).count == 1, "not created twice")
        #expect(rig.requests("DELETE", Self.channelsPath).isEmpty)
        let starts = rig.server.requests().filter { $0.header(":path") == "/3/device/\(APNsSinkTests.startToken)" }
        #expect(starts.map { APNsSinkTests.aps($0)["input-push-channel"] as? String } == [channel.id, channel.id])
        #expect(book.snapshot.channels.map(\.activity) == ["run-2"])
        #expect(rig.log.all.contains { $0.contains("run-2 is published on channel \(channel.id), kept from the strap's activity before it") })
    }

    /// `recover`: the crashed run's activity is ended on its channel, and the channel deleted once
    /// that end went out, its dismissal date ahead or not; so is a freed channel still waiting.
    @Test func recoverEndsOnTheChannelThenDeletesEveryChannel() throws {
        let rig = try Rig()
        let crashedRun = ChannelBook()
        let first = rig.sink(crashedRun)
        try first.accept(Self.update(.start, sequence: 1))
        #expect(eventually { first.counters.sent == 1 })
        first.finish(grace: 1) // as a crash leaves it: the activity still on its channel
        let crashed = try #require(crashedRun.snapshot.channels.first)
        #expect(crashed.activity == "run-1")
        let waiting = ChannelRegistry.Channel(id: "d2FpdGluZw==", app: crashed.app, storagePolicy: .mostRecentMessageStored, createdAt: 2,
                                              activity: nil, deleteAfter: Int64(Date().timeIntervalSince1970) + 3600)
        let book = ChannelBook(ChannelRegistry(channels: [crashed, waiting]), retiring: true)
        let sink = rig.sink(book)
        try sink.accept(Self.update(.end, sequence: 9, dismissal: Date(timeIntervalSinceNow: 1800)))
        sink.finish(grace: 5)
        #expect(rig.broadcasts.map { $0.header("apns-channel-id") } == [crashed.id])
        // The test server never had the waiting one: APNs' "no longer have it" counts as deleted.
        #expect(Set(rig.requests("DELETE", Self.channelsPath).compactMap { $0.header("apns-channel-id") }) == [crashed.id, waiting.id])
        #expect(book.snapshot.channels.isEmpty)
        #expect(rig.log.all.contains { $0.contains("deleted broadcast channel \(waiting.id) (APNs had it no longer: APNs 404 ChannelNotRegistered)") })
    }

    /// Apple's push host, on either port it answers (443, 2197), with or without a slash, manages
    /// channels at the management host of the same environment; any other push server (a local
    /// one) takes the management requests itself.
    @Test(arguments: [
        ("https://api.push.apple.com", "https://api-manage-broadcast.push.apple.com:2196"),
        ("https://api.push.apple.com:443/", "https://api-manage-broadcast.push.apple.com:2196"),
        ("https://api.push.apple.com:2197", "https://api-manage-broadcast.push.apple.com:2196"),
        ("https://API.Sandbox.Push.Apple.com:2197/", "https://api-manage-broadcast.sandbox.push.apple.com:2195"),
        ("https://127.0.0.1:8443/", "https://127.0.0.1:8443"),
    ])
    func applesPushHostsManageChannelsAtTheirManagementHost(push: String, management: String) {
        #expect(APNsSinkSettings(baseURL: push, bundleID: Self.bundleID).managementURL == management)
    }

    /// A created channel's id: in the `apns-channel-id` header as Apple documents it, or in a JSON
    /// body under either name one report saw; nothing else (no id, or text no channel id can be).
    @Test(arguments: [
        (HTTPResponse(status: 201, headers: ["apns-channel-id": "dHdvLWNoYW5uZWw="]), "dHdvLWNoYW5uZWw=" as String?),
        (HTTPResponse(status: 200, body: Array(#"{"channel-id":"Ym9keS1pZA=="}"#.utf8)), "Ym9keS1pZA=="),
        (HTTPResponse(status: 200, body: Array(#"{"apns-channel-id":"Ym9keS1pZA=="}"#.utf8)), "Ym9keS1pZA=="),
        (HTTPResponse(status: 200, body: Array(#"{"reason":"none"}"#.utf8)), nil),
        (HTTPResponse(status: 200, body: Array("not json".utf8)), nil),
        (HTTPResponse(status: 201, headers: ["apns-channel-id": "no spaces allowed"]), nil),
    ])
    func aCreatedChannelsIDIsTakenFromTheHeaderOrTheBody(response: HTTPResponse, id: String?) {
        #expect(ChannelManagement.createdID(response) == id)
    }
}
