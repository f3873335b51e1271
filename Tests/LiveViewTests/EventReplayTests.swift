import LiveState
import LiveView
import Sensors
import Testing

@Suite struct EventReplayTests {
    static func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

    /// The ids of the update messages in `bytes`, in order.
    static func ids(_ bytes: [UInt8]) -> [String] {
        text(bytes).split(separator: "\n").filter { $0.hasPrefix("id: ") }.map { String($0.dropFirst(4)) }
    }

    static func record(_ updates: [ActivityUpdate], into replay: inout EventReplay) {
        for update in updates { replay.record(update, message: Updates.message(update)) }
    }

    @Test func aNewConnectionGetsEachShownActivitysLatestThenItsSinks() {
        var replay = EventReplay()
        Self.record([Updates.make("a", 1), Updates.make("b", 1, at: 1), Updates.make("a", 2, at: 2), Updates.make("b", 2, at: 3)], into: &replay)
        replay.record(sinks: PreviewMessages.sinks(activity: "a", strap: "one", []), of: "a")
        let first = replay.catchUp(after: nil, at: Updates.start.adding(seconds: 4))
        #expect(Self.ids(first) == ["a/2", "b/2"])
        #expect(Self.text(first).hasSuffix("event: sinks\ndata: {\"activity\":\"a\",\"strap\":\"one\",\"sinks\":[]}\n\n"))
    }

    @Test func resumingGivesExactlyWhatCameAfterTheLastIDAcrossActivities() {
        var replay = EventReplay()
        let updates = [Updates.make("a", 1), Updates.make("b", 1, at: 1), Updates.make("a", 2, at: 2), Updates.make("b", 2, at: 3), Updates.make("a", 3, at: 4)]
        Self.record(updates, into: &replay)
        let now = Updates.start.adding(seconds: 5)
        #expect(Self.ids(replay.catchUp(after: "b/1", at: now)) == ["a/2", "b/2", "a/3"])
        #expect(Self.ids(replay.catchUp(after: "a/3", at: now)) == [], "up to date: nothing twice")
        // Not in the window (another run's, or garbage): the latest of each, less the one named.
        #expect(Self.ids(replay.catchUp(after: "b/2-other-run/9", at: now)) == ["b/2", "a/3"])
        #expect(Self.ids(replay.catchUp(after: "not an id", at: now)) == ["b/2", "a/3"])
    }

    @Test func theWindowIsBoundedAndAClientAwayTooLongGetsTheLatest() {
        var replay = EventReplay()
        let total = EventReplay.recentLimit + 44
        Self.record((1...total).map { Updates.make("a", $0, at: Double($0)) }, into: &replay)
        #expect(replay.recentIDs.count == EventReplay.recentLimit)
        #expect(replay.recentIDs.first?.sequence == 45 && replay.recentIDs.last?.sequence == total)
        let now = Updates.start.adding(seconds: Double(total + 1))
        #expect(Self.ids(replay.catchUp(after: "a/44", at: now)) == ["a/\(total)"], "evicted: the latest only")
        #expect(Self.ids(replay.catchUp(after: "a/45", at: now)).count == EventReplay.recentLimit - 1)
    }

    @Test func anEndedActivityIsShownUntilItsDismissalThenDropped() {
        var replay = EventReplay()
        Self.record([Updates.make("a", 1), Updates.make("a", 2, at: 10, event: .end, dismissalAfter: 60)], into: &replay)
        #expect(Self.ids(replay.catchUp(after: nil, at: Updates.start.adding(seconds: 69))) == ["a/2"])
        #expect(Self.ids(replay.catchUp(after: nil, at: Updates.start.adding(seconds: 70))) == [])
        Self.record([Updates.make("b", 1, at: 80)], into: &replay)
        #expect(Self.ids(replay.catchUp(after: nil, at: Updates.start.adding(seconds: 81))) == ["b/1"])
    }

    @Test func atMostShownLimitActivitiesAreKept() {
        var replay = EventReplay()
        Self.record((0..<(EventReplay.shownLimit + 5)).map { Updates.make("s\($0)", 1, at: Double($0)) }, into: &replay)
        let ids = Self.ids(replay.catchUp(after: nil, at: Updates.start.adding(seconds: 1000)))
        #expect(ids.count == EventReplay.shownLimit)
        #expect(ids.first == "s5/1")
    }
}
