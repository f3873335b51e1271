import Foundation
import Sensors
import LiveState
import TestSupport
import Testing
@testable import SessionState

/// The ledger of activities not yet known ended: what it records, what recovery sends, its file format.
@Suite struct ActivityLedgerTests {
    static let origin = SampleUpdates.workoutStart

    static func engineUpdates() throws -> [ActivityUpdate] { try SampleUpdates.fromEngine() }

    struct Step: Sendable, CustomTestStringConvertible {
        let name: String
        /// How many of the engine's updates (start, label, paused, end) the ledger has seen.
        let seen: Int
        /// Per entry: `event#sequence`.
        let entries: [String]
        let active: Int
        /// What recovery sends: `reason#sequence`.
        let recovery: [String]
        var testDescription: String { name }
    }

    static let steps: [Step] = [
        Step(name: "nothing sent", seen: 0, entries: [], active: 0, recovery: []),
        Step(name: "started", seen: 1, entries: ["start#1"], active: 1, recovery: ["end:recovered#2"]),
        Step(name: "label then pause", seen: 3, entries: ["update#3"], active: 1, recovery: ["end:recovered#4"]),
        Step(name: "ended, delivery unconfirmed: the same end again", seen: 4, entries: ["end#4"], active: 0, recovery: ["end:stopped#4"]),
    ]

    @Test(arguments: steps)
    func recordsAndRecovers(_ step: Step) throws {
        var ledger = ActivityLedger()
        for update in try Self.engineUpdates().prefix(step.seen) { ledger.record(EncodedUpdate(update), sinks: ["stdout", "http://127.0.0.1:1"]) }
        #expect(ledger.entries.map { "\($0.lastUpdate.event.rawValue)#\($0.lastUpdate.sequence)" } == step.entries)
        #expect(ledger.activeCount == step.active)
        let ends = ledger.recoveryEnds(at: Self.origin.adding(seconds: 3600), policy: CadencePolicy())
        #expect(ends.map { "\($0.lastUpdate.reason)#\($0.lastUpdate.sequence)" } == step.recovery)
        #expect(ends.allSatisfy { $0.sinks == ["stdout", "http://127.0.0.1:1"] && $0.lastUpdate.event == .end })
        // The file format keeps every field exactly.
        #expect(try ActivityLedger(decoding: ledger.encoded()) == ledger)
    }

    /// A start and an end are synced on their way; halfway through each reservation the next is
    /// asked for off the way, and the first update past the confirmed part waits for it.
    @Test func startsAndEndsAreSyncedNowReservationsSoon() throws {
        let start = try Self.engineUpdates()[0]
        var ledger = ActivityLedger()
        let first = ledger.record(EncodedUpdate(start), sinks: ["stdout"])
        #expect(first == .now)
        var update = start
        update.event = .update
        var asked: [Int: ActivityLedger.Sync] = [:]
        for sequence in 2...40 {
            update.sequence = sequence
            let sync = ledger.record(EncodedUpdate(update), sinks: ["stdout"])
            if sync != .none { asked[sequence] = sync }
        }
        #expect(ActivityLedger.reservedAhead == 16)
        #expect(asked == [10: .soon, 18: .awaitSoon, 26: .soon, 34: .awaitSoon],
                "the start reserves through 17; at 10 the next block (33) is asked for, 18 waits for it")
        #expect(ledger.entries.map(\.reservedThrough) == [49])
        update.sequence = 60 // past every reservation (a ledger read back after a restart, say)
        let overtaken = ledger.record(EncodedUpdate(update), sinks: ["stdout"])
        #expect(overtaken == .now)
        var end = update
        end.event = .end
        end.sequence = 61
        let last = ledger.record(EncodedUpdate(end), sinks: ["stdout"])
        #expect(last == .now)
    }

    /// Known last sequences give the next number; after a machine restart, the number past the reservation.
    @Test func recoveryWithoutTheLastSequencesSkipsPastTheReservation() throws {
        let updates = try Self.engineUpdates()
        var ledger = ActivityLedger()
        for update in updates.prefix(3) { ledger.record(EncodedUpdate(update), sinks: ["stdout"]) }
        let later = Self.origin.adding(seconds: 3600)
        #expect(ledger.recoveryEnds(at: later, policy: CadencePolicy()).map(\.lastUpdate.sequence) == [4])
        ledger.lastSequencesKnown = false
        #expect(ledger.recoveryEnds(at: later, policy: CadencePolicy()).map(\.lastUpdate.sequence) == [18])
        ledger.record(EncodedUpdate(updates[3]), sinks: ["stdout"])
        #expect(ledger.recoveryEnds(at: later, policy: CadencePolicy()).map(\.lastUpdate.sequence) == [4],
                "an end sent is sent again as it was")
        let decoded = try ActivityLedger.decoded(try ledger.encoded(boot: "a-boot"))
        #expect(decoded.boot == "a-boot")
        #expect(decoded.ledger.entries == ledger.entries)
        #expect(try ActivityLedger.decoded(Array(#"{"version":1,"activities":[]}"#.utf8)).boot == nil)
    }

    @Test func aStartWithAnIdAlreadyListedOpensASecondEntry() throws {
        let updates = try Self.engineUpdates()
        var ledger = ActivityLedger()
        ledger.record(EncodedUpdate(updates[0].recoveredEnd(at: Self.origin, policy: CadencePolicy())), sinks: ["stdout"])
        ledger.record(EncodedUpdate(updates[0]), sinks: ["stdout"]) // a replay starts the same id again
        ledger.record(EncodedUpdate(updates[1]), sinks: ["stdout"])
        #expect(ledger.entries.map { "\($0.lastUpdate.reason)#\($0.lastUpdate.sequence)" } == ["end:recovered#2", "label#2"])
        ledger.settle(reachedBy: ["stdout"])
        #expect(ledger.isEmpty)
    }

    /// After a run: each entry keeps only the sinks that did not get its end; an entry none owe goes.
    @Test(arguments: [
        (["stdout", "https://s"], ["stdout", "https://s", "file:/b"], [["file:/b"], ["file:/a"]]),
        (["stdout", "file:/a", "https://s"], ["stdout"], []),
        (["stdout"], ["https://s"], [["https://s"], ["file:/a", "https://s"]]),
        ([], ["stdout"], [["stdout"], ["file:/a", "https://s"]]),
    ])
    func settlingKeepsWhatEachSinkStillOwes(reached: [String], first: [String], owed: [[String]]) throws {
        let updates = try Self.engineUpdates()
        var ledger = ActivityLedger()
        ledger.record(EncodedUpdate(updates[0]), sinks: first)
        var earlier = updates[0].recoveredEnd(at: Self.origin, policy: CadencePolicy())
        earlier.activityID = "an earlier run's"
        ledger.record(EncodedUpdate(earlier), sinks: ["file:/a", "https://s"])
        ledger.settle(reachedBy: reached)
        #expect(ledger.entries.map(\.sinks) == owed)
    }

    @Test(arguments: [
        ("", "not JSON"),
        ("{\"version\":1}", "activities: missing"),
        ("{\"version\":2,\"activities\":[]}", "version: expected 1, got 2"),
        ("{\"version\":1,\"activities\":[{\"sinks\":[]}]}", "activities[0].lastUpdate: missing"),
        ("{\"version\":1,\"activities\":[{\"sinks\":\"stdout\",\"lastUpdate\":{}}]}", "activities[0].sinks: expected"),
        ("[1,2]", "(top level): expected"),
    ])
    func damageIsNamed(text: String, expected: String) {
        #expect(throws: LedgerFormatError.self) { try ActivityLedger(decoding: Array(text.utf8)) }
        do {
            _ = try ActivityLedger(decoding: Array(text.utf8))
        } catch {
            #expect(error.message.hasPrefix(expected), "\(error.message)")
        }
    }

    @Test(arguments: [
        ("\"event\":\"start\"", "\"event\":\"begin\"", "activities[0].lastUpdate.event: expected start, update or end, got \"begin\""),
        ("\"sequence\":1", "\"sequence\":0", "activities[0].lastUpdate.sequence: expected a number ≥ 1, got 0"),
        ("\"timestamp\":1704088800", "\"timestamp\":1e300", "activities[0].lastUpdate.timestamp: expected Unix seconds"),
        ("\"reservedThrough\":17", "\"reservedThrough\":9223372036854775807", "activities[0].reservedThrough: expected 1…16001"),
        ("\"reservedThrough\":17", "\"reservedThrough\":0", "activities[0].reservedThrough: expected 1…16001 (its lastUpdate's sequence on), got 0"),
    ])
    func damagedFieldsAreNamed(original: String, damaged: String, expected: String) throws {
        var ledger = ActivityLedger()
        ledger.record(EncodedUpdate(try Self.engineUpdates()[0]), sinks: ["stdout"])
        let text = String(decoding: try ledger.encoded(), as: UTF8.self)
        #expect(text.contains(original))
        do {
            _ = try ActivityLedger(decoding: Array(text.replacingOccurrences(of: original, with: damaged).utf8))
            Issue.record("decoded a damaged file")
        } catch {
            #expect(error.message.hasPrefix(expected), "\(error.message)")
        }
    }
}
