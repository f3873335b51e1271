import Testing
@testable import Forwarding

/// The push-token rules as tables (pure: times are numbers): what a token is, who wins, what a 410
/// does and does not touch, where each push goes and what waits, and the file they are kept in.
@Suite struct TokenRegistryTests {
    static func token(_ seed: String, bytes: Int = 32) -> PushToken {
        try! PushToken.parse(String(repeating: seed, count: bytes * 2 / seed.count)).get()
    }

    static let a = token("a1")
    static let b = token("b2")
    static let c = token("c3")
    static let start = token("5d")

    @Test(arguments: [
        ("", PushToken.Problem.empty),
        ("ab cd", .notHex(position: 3)),
        ("<ab12>", .notHex(position: 1)),
        ("ab１２" + String(repeating: "0", count: 60), .notHex(position: 3)),
        (String(repeating: "a", count: 33), .oddLength(digits: 33)),
        (String(repeating: "a", count: 14), .tooShort(bytes: 7)),
        (String(repeating: "a", count: 514), .tooLong(bytes: 257)),
    ])
    func tokensRefused(_ text: String, _ problem: PushToken.Problem) {
        #expect(PushToken.parse(text) == .failure(problem))
        #expect(!problem.description.contains(text) || text.isEmpty, "a refusal never repeats the token")
    }

    @Test(arguments: [16, 64, 108, 160, 200, 512])
    func realTokenLengthsAreTaken(digits: Int) throws {
        let token = try PushToken.parse(String(repeating: "AB", count: digits / 2)).get()
        #expect(token.hex == String(repeating: "ab", count: digits / 2))
        #expect(token.description == "abababab…", "logs show 8 characters")
    }

    /// (current: token and issuedAt, new: token and issuedAt, what happens)
    @Test(arguments: [
        (nil, nil, (b, 100), "registered"),
        ((a, 100), nil, (b, 200), "registered replacing a1a1a1a1…"),
        ((a, 200), nil, (b, 100), "refused: older"),
        ((a, 200), nil, (b, nil), "registered replacing a1a1a1a1…"), // no issue date: by arrival
        ((a, nil), nil, (b, 100), "registered replacing a1a1a1a1…"),
        ((a, 100), nil, (b, 100), "registered replacing a1a1a1a1…"), // a tie: by arrival
        ((a, 100), nil, (a, 50), "unchanged"),
        ((a, 100), 500, (a, nil), "refused: unregistered"),
        ((a, 100), 500, (a, 400), "refused: unregistered"),
        ((a, 100), 500, (a, 600), "registered"), // issued after APNs' 410: valid again
        ((a, 100), 500, (b, 50), "registered replacing a1a1a1a1…"), // a dead token loses to any new one… unless older
        (nil, nil, (b, 1_000 + TokenRegistry.allowedClockSkew + 1), "refused: future"),
    ] as [((PushToken, Int64?)?, Int64?, (PushToken, Int64?), String)])
    func theNewestRegistrationWins(current: (PushToken, Int64?)?, unregisteredAt: Int64?, new: (PushToken, Int64?), outcome: String) {
        for target in [TokenRegistry.Target.activity("run-1"), .pushToStart] {
            var registry = TokenRegistry()
            if let (token, issuedAt) = current {
                _ = registry.register(token, issuedAt: issuedAt, for: target, at: 10)
                if let unregisteredAt { registry.unregistered(token, at: unregisteredAt) }
            }
            let result = registry.register(new.0, issuedAt: new.1, for: target, at: 1_000)
            let said: String = switch result {
            case .success(.registered(nil)): "registered"
            case let .success(.registered(old?)): "registered replacing \(old)"
            case .success(.unchanged): "unchanged"
            case .failure(.older): "refused: older"
            case .failure(.unregisteredByAPNs): "refused: unregistered"
            case .failure(.issuedInTheFuture): "refused: future"
            }
            #expect(said == outcome, "\(target)")
            let holder = registry.entry(for: target)?.token
            #expect(holder == (outcome.hasPrefix("registered") || outcome == "unchanged" ? new.0 : current?.0), "\(target)")
        }
    }

    /// A 410 for a token rotated away meanwhile touches only that token (the providers' "a late
    /// answer wiped the new token").
    @Test func a410ForAnOldTokenLeavesTheNewOne() {
        var registry = TokenRegistry()
        _ = registry.register(Self.a, issuedAt: nil, for: .activity("run-1"), at: 10)
        _ = registry.register(Self.b, issuedAt: nil, for: .activity("run-1"), at: 20)
        let changedByOld = registry.unregistered(Self.a, at: 30)
        #expect(!changedByOld)
        #expect(registry.status(of: "run-1") == .registered)
        #expect(registry.route(activity: "run-1", isStart: false, configured: .init(), at: 40) == .send(to: Self.b, pushToStart: false))
        let changedByCurrent = registry.unregistered(Self.b, at: 50)
        #expect(changedByCurrent)
        #expect(registry.status(of: "run-1") == .unregistered)
    }

    /// A push-to-start answered after the activity's token came must not make it wait again.
    @Test func aPushToStartRacingARegistrationKeepsTheToken() {
        var registry = TokenRegistry()
        _ = registry.register(Self.a, issuedAt: nil, for: .activity("run-1"), at: 10)
        registry.pushToStartSent(activity: "run-1", at: 11)
        #expect(registry.status(of: "run-1") == .registered)
        #expect(registry.awaiting == nil)
    }

    /// What each push does, step by step through an activity's life (times in seconds).
    @Test func whereEachPushGoesAndWhatWaits() {
        var registry = TokenRegistry()
        let none = TokenRegistry.ConfiguredTokens()
        func route(_ id: String, start: Bool = false, at time: Int64 = 100) -> String {
            switch registry.route(activity: id, isStart: start, configured: none, at: time) {
            case let .send(token, pushToStart): "\(pushToStart ? "push-to-start" : "update") to \(token)"
            case let .wait(reason, until): "wait\(until.map { " until \($0)" } ?? ""): \(reason)"
            case let .drop(reason): "drop: \(reason)"
            }
        }
        #expect(route("run-1", start: true).hasPrefix("wait: its start waits for a push-to-start token"))
        _ = registry.register(Self.start, issuedAt: nil, for: .pushToStart, at: 100)
        #expect(route("run-1", start: true) == "push-to-start to 5d5d5d5d…")
        registry.pushToStartSent(activity: "run-1", at: 101)
        #expect(registry.status(of: "run-1") == .pending)
        #expect(route("run-1").hasPrefix("wait: waiting for its push token (the push-to-start went out at 101)"))
        // A second activity of the strap may not push-to-start while the first's token is pending.
        #expect(route("run-2", start: true).hasPrefix("wait: its push-to-start waits: run-1 was started by one at 101"))
        _ = registry.register(Self.a, issuedAt: nil, for: .activity("run-1"), at: 110)
        #expect(route("run-1") == "update to a1a1a1a1…")
        #expect(route("run-2", start: true) == "push-to-start to 5d5d5d5d…")
        // A 410 holds run-1's pushes until a new registration.
        registry.unregistered(Self.a, at: 120)
        #expect(route("run-1").hasPrefix("wait: APNs answered 410 Unregistered for its push token a1a1a1a1… at 120"))
        _ = registry.register(Self.c, issuedAt: nil, for: .activity("run-1"), at: 130)
        #expect(route("run-1") == "update to c3c3c3c3…")
        // An end that never finds a token waits until its dismissal date, then is dropped.
        registry.endAccepted(activity: "run-2", dismissal: 1_000)
        #expect(route("run-2", at: 999).hasPrefix("wait until 1000: no push token registered for it yet"))
        #expect(route("run-2", at: 1_000).hasPrefix("drop: its end's dismissal date (1000) passed"))
        registry.finished(activity: "run-2")
        #expect(registry.activity("run-2") == nil)
    }

    /// Token files route as they did before registration: a start to the push-to-start token, the
    /// rest to the device token; a registered token comes first, and a 410 on a file's token
    /// leaves the rest waiting.
    @Test func configuredTokensAreTheFallback() {
        var registry = TokenRegistry()
        let configured = TokenRegistry.ConfiguredTokens(device: Self.c, pushToStart: Self.start)
        #expect(registry.route(activity: "run-1", isStart: true, configured: configured, at: 1) == .send(to: Self.start, pushToStart: true))
        #expect(registry.route(activity: "run-1", isStart: false, configured: configured, at: 1) == .send(to: Self.c, pushToStart: false))
        #expect(registry.route(activity: "run-1", isStart: true, configured: .init(device: Self.c), at: 1) == .send(to: Self.c, pushToStart: false))
        _ = registry.register(Self.a, issuedAt: nil, for: .activity("run-1"), at: 2)
        #expect(registry.route(activity: "run-1", isStart: true, configured: configured, at: 3) == .send(to: Self.a, pushToStart: false))
        registry.unregistered(Self.c, at: 4)
        #expect(registry.route(activity: "run-2", isStart: false, configured: configured, at: 5) == .wait("no push token registered for it yet", until: nil))
        #expect(registry.encoded() == TokenRegistry(pushToStart: nil, activities: registry.activities).encoded(),
                "configured tokens and their 410s are not stored")
    }

    @Test func theFileHoldsWhatTheRulesNeedAndReadsBack() throws {
        var registry = TokenRegistry()
        _ = registry.register(Self.start, issuedAt: 90, for: .pushToStart, at: 100)
        _ = registry.register(Self.a, issuedAt: nil, for: .activity("run/1 \"x\""), at: 110)
        registry.unregistered(Self.a, at: 120)
        registry.pushToStartSent(activity: "run-2", at: 130)
        registry.endAccepted(activity: "run-2", dismissal: 900)
        let bytes = registry.encoded()
        #expect(String(decoding: bytes, as: UTF8.self).hasPrefix(#"{"version":1,"pushToStart":{"token":"5d5d"#))
        #expect(try TokenRegistry(decoding: bytes) == registry)
        #expect(try TokenRegistry(decoding: TokenRegistry().encoded()) == TokenRegistry())
    }

    @Test(arguments: [
        (#"{"version":2,"activities":[]}"#, "version: expected 1, got 2"),
        (#"{"version":1}"#, "activities: missing"),
        (#"{"version":1,"activities":[{"activity":"a","token":{"token":"xyz","registeredAt":1}}]}"#,
         "activities[0].token.token: expected hex digits (0-9, a-f), got another character at position 1"),
        (#"{"version":1,"activities":[{"activity":"a","pushToStartSentAt":"soon"}]}"#, "activities[0].pushToStartSentAt: expected Int64"),
        ("[1,", "not JSON"),
    ])
    func aDamagedFileSaysWhere(_ text: String, _ message: String) {
        #expect(throws: TokenFileError.self) { try TokenRegistry(decoding: Array(text.utf8)) }
        do {
            _ = try TokenRegistry(decoding: Array(text.utf8))
        } catch {
            #expect(error.message.hasPrefix(message), "\(error.message)")
        }
    }

    @Test func theRegistryRemembersABoundedNumberOfActivities() {
        var registry = TokenRegistry()
        for index in 0...TokenRegistry.maximumActivities { registry.endAccepted(activity: "run-\(index)", dismissal: 1) }
        #expect(registry.activities.count == TokenRegistry.maximumActivities)
        #expect(registry.activities.first?.id == "run-1", "the oldest went first")
    }
}
