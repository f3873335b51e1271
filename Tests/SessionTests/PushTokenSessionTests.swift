import Forwarding
import Foundation
import LiveState
import Sensors
import SessionTestSupport
import TestSupport
import Testing
@testable import Session
@testable import SessionState

/// The session's one entry point for push tokens (what MQTT's topics and HTTP's routes call): the
/// body read strictly, the activity checked against the strap's, each refusal of the kind a surface
/// turns into its answer (HTTP: 400, 404, 409, 503), and the status `ctl status` shows.
@Suite(.timeLimit(.minutes(1))) struct PushTokenSessionTests {
    static let token = String(repeating: "a1", count: 32)
    static let newer = String(repeating: "b2", count: 32)

    final class Harness {
        let directory: TemporaryDirectory
        let console = CapturedConsole()
        let book: PushTokenBook?
        let session: LiveSession

        init(withBook: Bool = true) throws {
            directory = try TemporaryDirectory()
            book = withBook ? PushTokenBook() : nil
            let sink = try LineSink.appending(toFile: directory.path("updates.ndjson"))
            let sinks = SinkSet(sinks: [sink], relay: SinkLogRelay(), pushTokens: book, console: console)
            let stateFile = try ActivityStateFile(directory: directory.path("state"), key: "strap-test")
            session = LiveSession(feed: WorkoutFeed(engine: try LiveStateEngine()), sinks: sinks, console: console, clock: .real,
                                  stateFile: stateFile)
        }

        /// Starts the session and its activity (one sample).
        func startActivity() throws -> String {
            try session.start()
            session.deliver(SensorEvent(time: try #require(SessionClock.real.now()), kind: .notification(characteristic: .heartRateMeasurement, value: [0x06, 120])))
            let deadline = Date(timeIntervalSinceNow: 10)
            while session.status().activity == nil, Date() < deadline { usleep(10_000) }
            return try #require(session.status().activity?.activityID)
        }

        func send(_ action: PushTokenRequest.Action, for target: PushTokenRequest.Target) async -> Result<PushTokenReceipt, PushTokenRefusal> {
            await withCheckedContinuation { continuation in
                session.pushToken(PushTokenRequest(action, for: target, origin: "test")) { continuation.resume(returning: $0) }
            }
        }

        func register(_ body: String, for target: PushTokenRequest.Target = .activity(nil)) async -> Result<PushTokenReceipt, PushTokenRefusal> {
            await send(.register(body: Array(body.utf8)), for: target)
        }
    }

    static func kind(_ result: Result<PushTokenReceipt, PushTokenRefusal>) -> String {
        switch result {
        case let .success(receipt): "\(receipt.change.rawValue) \(receipt.activity ?? "push-to-start") \(receipt.status?.rawValue ?? "-")"
        case let .failure(refusal): "\(refusal.kind): \(refusal.message)"
        }
    }

    @Test func registrationsForTheStrapsActivitiesAndTheirRefusals() async throws {
        let harness = try Harness()
        #expect(Self.kind(await harness.register(#"{"token":"\#(Self.token)"}"#)) == "unknownActivity: no activity yet on this strap")
        let id = try harness.startActivity()
        #expect(Self.kind(await harness.register(#"{"token":"\#(Self.token)","issuedAt":200}"#)) == "registered \(id) registered")
        #expect(Self.kind(await harness.register(#"{"token":"\#(Self.token)"}"#, for: .activity(id))) == "unchanged \(id) registered")
        #expect(Self.kind(await harness.register(#"{"token":"\#(Self.newer)","issuedAt":100}"#, for: .activity(id)))
                == "conflict: the push token of \(id): issuedAt 100 is older than the registered token's (200): the newer token stays")
        #expect(Self.kind(await harness.register(#"{"token":"\#(Self.newer)"}"#, for: .activity("run-9")))
                == "unknownActivity: no activity run-9 on this strap (it has \(id))")
        #expect(Self.kind(await harness.register(#"{"token":"\#(Self.newer)","activity":"run-9"}"#, for: .activity(id)))
                == "badRequest: activity: the body names run-9, the request \(id)")
        #expect(Self.kind(await harness.register(#"{"token":"\#(Self.newer)"}"#, for: .pushToStart)) == "registered push-to-start -")
        #expect(Self.kind(await harness.send(.forget, for: .activity(id))) == "forgotten \(id) none")
        #expect(Self.kind(await harness.send(.forget, for: .activity(id))) == "absent \(id) none")
        #expect(harness.console.log.contains("hrbridge: test: push token of \(id) registered\n"))
        #expect(!harness.console.log.contains(Self.token), "no log holds a whole token")
        harness.session.stop(signal: SIGTERM)
        _ = harness.session.wait()
        #expect(Self.kind(await harness.register(#"{"token":"\#(Self.token)"}"#)) == "unavailable: the session has ended")
    }

    @Test func aRunWithoutTokensSaysSo() async throws {
        let harness = try Harness(withBook: false)
        _ = try harness.startActivity()
        #expect(Self.kind(await harness.register(#"{"token":"\#(Self.token)"}"#))
                == "unavailable: this run takes no push tokens (no state directory for them)")
        harness.session.stop(signal: SIGTERM)
        _ = harness.session.wait()
    }

    @Test(arguments: [
        ("[]", #"expected an object {"token": HEX, "issuedAt": UNIX_S}"#),
        (#"{"token": 5}"#, "token: expected a string of hex digits"),
        (#"{"token": "a1a1", "token": "b2b2"}"#, "not JSON: line 1, column 19: duplicate key \"token\""),
        (#"{"issuedAt": 5}"#, "token: missing"),
        (#"{"token": "\#(token)", "issuedAt": -1}"#, "issuedAt: expected whole Unix seconds (0 or more), got -1"),
        (#"{"token": "\#(token)", "issuedAt": 1.5}"#, "issuedAt: expected whole Unix seconds (0 or more), got 1.5"),
        (#"{"token": "\#(token)", "issuedAt": "now"}"#, "issuedAt: expected whole Unix seconds"),
        (#"{"token": "\#(token)", "activity": ""}"#, "activity: expected an activity id (a non-empty string)"),
        (#"{"token": "\#(token)", "user": "x"}"#, #"unknown key "user": expected token, issuedAt and activity"#),
        (String(repeating: " ", count: 4097), "body is 4097 bytes, over the 4096 a registration takes"),
    ])
    func badBodiesSayWhatIsWrong(_ body: String, _ message: String) {
        switch PushTokenBody.parse(Array(body.utf8)) {
        case .success: Issue.record("\(body) accepted")
        case let .failure(refusal):
            #expect(refusal.kind == .badRequest)
            #expect(refusal.message.hasPrefix(message), "\(refusal.message)")
        }
    }

    @Test func aBodyReadsItsFields() throws {
        let body = try PushTokenBody.parse(Array(#"{"activity":"run-1","issuedAt":1700000000,"token":"\#(Self.token.uppercased())"}"#.utf8)).get()
        #expect(body == PushTokenBody(token: try PushToken.parse(Self.token).get(), issuedAt: 1_700_000_000, activity: "run-1"))
        #expect(try PushTokenBody.parse(Array(#"{"token":"\#(Self.token)","issuedAt":null}"#.utf8)).get().issuedAt == nil)
    }

    @Test func statusSaysTheActivityWaitsForItsToken() throws {
        var engine = try LiveStateEngine()
        let update = try engine.receive(.sample(beatsPerMinute: 142, contact: .detected), at: Timestamp(unixSeconds: 1_704_088_800))[0]
        for (token, said) in [(TokenStatus.pending, ", waiting for its push token"), (.registered, ", push token registered"), (nil, "")] {
            let status = SessionStatus(running: true, activity: update, pushToken: token, sinks: [])
            #expect(status.line.hasPrefix("running, activity \(update.activityID) #1 (start, 142 bpm)\(said); priority 10"), "\(status.line)")
        }
    }
}
