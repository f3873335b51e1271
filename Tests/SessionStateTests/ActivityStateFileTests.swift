import Foundation
import Sensors
import LiveState
import TestSupport
import Testing
@testable import SessionState

/// The state file on a real file system: atomic replace, lock, corrupt files moved aside.
@Suite struct ActivityStateFileTests {
    static func ledger() throws -> ActivityLedger {
        var ledger = ActivityLedger()
        ledger.record(EncodedUpdate(try ActivityLedgerTests.engineUpdates()[0]), sinks: ["stdout"])
        return ledger
    }

    @Test func savesLoadsAndRemovesWhenEmpty() throws {
        let directory = try TemporaryDirectory()
        let file = try ActivityStateFile(directory: directory.url.path, key: "strap-A")
        #expect(file.path == directory.path("activities/strap-A.json"))
        #expect(file.load().ledger.isEmpty)
        try file.save(try Self.ledger())
        let loaded = file.load()
        #expect(loaded.warning == nil)
        #expect(loaded.ledger == (try Self.ledger()))
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: directory.path("activities")).sorted()
        #expect(leftovers == ["strap-A.json", "strap-A.json.newest", "strap-A.lock"], "no temporary file stays behind")
        try file.save(ActivityLedger())
        #expect(!FileManager.default.fileExists(atPath: file.path))
        file.release()
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path("activities")).isEmpty)
    }

    @Test func aSecondOwnerIsRefusedUntilTheFirstLetsGo() throws {
        let directory = try TemporaryDirectory()
        let first = try ActivityStateFile(directory: directory.url.path, key: "strap-A")
        #expect(throws: ActivityStateFile.Failure.busy(path: directory.path("activities/strap-A.lock"), holder: "pid \(getpid())")) {
            _ = try ActivityStateFile(directory: directory.url.path, key: "strap-A")
        }
        let other = try ActivityStateFile(directory: directory.url.path, key: "strap-B") // another strap is fine
        other.release()
        try first.save(try Self.ledger())
        first.release()
        let second = try ActivityStateFile(directory: directory.url.path, key: "strap-A")
        #expect(second.load().ledger == (try Self.ledger()), "what the first left is there for the second")
        second.release()
    }

    /// Updates between syncs reach the state file's newest twin only: read back in the boot that wrote
    /// them (a crashed process loses nothing), not after the machine restarted (a power cut may have).
    @Test func unsyncedSavesCountInTheBootThatWroteThemOnly() throws {
        let directory = try TemporaryDirectory()
        let updates = try ActivityLedgerTests.engineUpdates()
        let writer = try ActivityStateFile(directory: directory.url.path, key: "strap-A", boot: "boot-1")
        var ledger = ActivityLedger()
        for update in updates.prefix(3) {
            let sync = ledger.record(EncodedUpdate(update), sinks: ["stdout"])
            try writer.save(ledger, sync: sync)
        }
        writer.release()
        let synced = try ActivityLedger(decoding: Array(try Data(contentsOf: URL(fileURLWithPath: writer.path))))
        #expect(synced.entries.map(\.lastUpdate.sequence) == [1], "only the start was synced")
        let later = ActivityLedgerTests.origin.adding(seconds: 3600)

        let sameBoot = try ActivityStateFile(directory: directory.url.path, key: "strap-A", boot: "boot-1")
        #expect(try sameBoot.read() == ledger)
        #expect(try sameBoot.read().recoveryEnds(at: later, policy: CadencePolicy()).map(\.lastUpdate.sequence) == [4])
        sameBoot.release()

        let restarted = try ActivityStateFile(directory: directory.url.path, key: "strap-A", boot: "boot-2")
        let read = try restarted.read()
        #expect(!read.lastSequencesKnown)
        #expect(read.entries.map(\.lastUpdate.sequence) == [1])
        #expect(read.recoveryEnds(at: later, policy: CadencePolicy()).map(\.lastUpdate.sequence) == [18])
        restarted.release()

        _ = try directory.write("activities/strap-A.json.newest", "{\"version\":1,\"boot\":\"boot-1\",\"activ")
        let damagedTwin = try ActivityStateFile(directory: directory.url.path, key: "strap-A", boot: "boot-1")
        #expect(try damagedTwin.read().lastSequencesKnown == false, "a damaged twin falls back to the synced file")
        damagedTwin.release()
    }

    /// The next reservation is synced off the update's way; the update past the confirmed part waits for it.
    @Test func aReservationIsSyncedSoonAndAwaitedPastTheConfirmedPart() throws {
        let directory = try TemporaryDirectory()
        let file = try ActivityStateFile(directory: directory.url.path, key: "strap-A", boot: "boot-1")
        let start = try ActivityLedgerTests.engineUpdates()[0]
        var ledger = ActivityLedger()
        let first = ledger.record(EncodedUpdate(start), sinks: ["stdout"])
        try file.save(ledger, sync: first)
        var update = start
        update.event = .update
        for sequence in 2...18 {
            update.sequence = sequence
            let sync = ledger.record(EncodedUpdate(update), sinks: ["stdout"])
            try file.save(ledger, sync: sync)
        }
        let synced = try ActivityLedger(decoding: Array(try Data(contentsOf: URL(fileURLWithPath: file.path))))
        #expect(synced.entries.map { "\($0.lastUpdate.sequence)…\($0.reservedThrough)" } == ["10…33"],
                "the sync asked for at 10, on disk before 18 went on")
        #expect(try file.read().entries.map(\.lastUpdate.sequence) == [18])
        file.release()
    }

    /// The twin is rewritten in place: a shorter state is padded with spaces (no truncate) and reads back.
    @Test func theTwinIsRewrittenInPlaceAndReadsBackWhenShorter() throws {
        let directory = try TemporaryDirectory()
        let file = try ActivityStateFile(directory: directory.url.path, key: "strap-A", boot: "boot-1")
        let start = try ActivityLedgerTests.engineUpdates()[0]
        var longer = ActivityLedger()
        longer.record(EncodedUpdate(start), sinks: ["stdout", "https://a-long-sink-name.example.org/v1/activities"])
        try file.save(longer)
        let twin = file.path + ".newest"
        let length = try #require(FileManager.default.attributesOfItem(atPath: twin)[.size] as? Int)
        var shorter = ActivityLedger()
        shorter.record(EncodedUpdate(start), sinks: ["stdout"])
        try file.save(shorter, sync: .none)
        #expect(try FileManager.default.attributesOfItem(atPath: twin)[.size] as? Int == length, "padded, not truncated")
        #expect(try String(contentsOfFile: twin, encoding: .utf8).hasSuffix("  "))
        #expect(try file.read() == shorter)
        file.release()
    }

    @Test func aCorruptFileIsMovedAsideAndNamed() throws {
        let directory = try TemporaryDirectory()
        let file = try ActivityStateFile(directory: directory.url.path, key: "strap-A")
        _ = try directory.write("activities/strap-A.json", "{\"version\":1,\"activities\":[{\"sinks\":[\"stdout\"]")
        let loaded = file.load()
        #expect(loaded.ledger.isEmpty)
        let warning = try #require(loaded.warning)
        #expect(warning.hasPrefix("\(file.path): unreadable activity state (not JSON"))
        #expect(warning.contains("moved to \(file.path).corrupt-"))
        let aside = try FileManager.default.contentsOfDirectory(atPath: directory.path("activities")).filter { $0.contains(".corrupt-") }
        #expect(aside.count == 1)
        #expect(try String(contentsOfFile: directory.path("activities/\(aside[0])"), encoding: .utf8).hasPrefix("{\"version\":1"))
        #expect(!FileManager.default.fileExists(atPath: file.path))
        file.release()
    }

    @Test func anUnwritableDirectoryIsAnErrorNamingIt() throws {
        let directory = try TemporaryDirectory()
        let blocker = try directory.write("state", "a file where a directory should be")
        #expect(throws: ActivityStateFile.Failure.self) { _ = try ActivityStateFile(directory: blocker, key: "strap-A") }
        do {
            _ = try ActivityStateFile(directory: blocker, key: "strap-A")
        } catch {
            #expect(error.description.hasPrefix("\(blocker)/activities: cannot create the state directory"))
        }
    }
}
