import BlueZ
import Synchronization
import Testing

/// Connects are serialized per adapter: a second strap on the same adapter waits for the
/// first to leave the gate; a strap on another adapter does not wait at all.
@Suite(.timeLimit(.minutes(1))) struct AdapterGatesTests {
    final class Log: Sendable {
        let entries = Mutex<[String]>([])
        func add(_ entry: String) { entries.withLock { $0.append(entry) } }
        var all: [String] { entries.withLock { $0 } }
    }

    @Test func sameAdapterWaitsOtherAdapterDoesNot() async throws {
        let gates = AdapterGates()
        let log = Log()
        let (release, releaser) = AsyncStream.makeStream(of: Void.self)
        let (entered, enteredFeed) = AsyncStream.makeStream(of: Void.self)
        let first = Task {
            try await gates.withGate("/org/bluez/hci0") {
                log.add("A in")
                enteredFeed.yield()
                for await _ in release { break }
                log.add("A out")
            }
        }
        for await _ in entered { break }
        let second = Task { try await gates.withGate("/org/bluez/hci0") { log.add("B in") } }
        try await gates.withGate("/org/bluez/hci1") { log.add("C in") } // finishes while A holds hci0
        #expect(!log.all.contains("B in"), "B entered hci0's gate while A held it")
        releaser.yield()
        try await first.value
        try await second.value
        #expect(log.all == ["A in", "C in", "A out", "B in"])
    }
}
