import BlueZ
import BusTestSupport
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

    /// Strap A inside hci0's gate (returns once it is in), until `release` yields.
    static func holdingHCI0(_ gates: AdapterGates, _ log: Log) async -> (task: Task<Void, any Error>, release: AsyncStream<Void>.Continuation) {
        let (release, releaser) = AsyncStream.makeStream(of: Void.self)
        let (entered, enteredFeed) = AsyncStream.makeStream(of: Void.self)
        let task = Task {
            try await gates.withGate("/org/bluez/hci0") {
                log.add("A in")
                enteredFeed.yield()
                for await _ in release { break }
                log.add("A out")
            }
        }
        for await _ in entered { break }
        return (task, releaser)
    }

    @Test func sameAdapterWaitsOtherAdapterDoesNot() async throws {
        let gates = AdapterGates()
        let log = Log()
        let (first, releaser) = await Self.holdingHCI0(gates, log)
        let second = Task { try await gates.withGate("/org/bluez/hci0") { log.add("B in") } }
        try await gates.withGate("/org/bluez/hci1") { log.add("C in") } // finishes while A holds hci0
        #expect(!log.all.contains("B in"), "B entered hci0's gate while A held it")
        releaser.yield()
        try await first.value
        try await second.value
        #expect(log.all == ["A in", "C in", "A out", "B in"])
    }

    /// A strap stopped while it waits behind another's connect leaves at once; the gate still
    /// passes in order to whoever waits after it.
    @Test func aWaiterCancelledInLineLeavesWithoutWaitingForTheConnectAhead() async throws {
        let gates = AdapterGates()
        let log = Log()
        let (first, releaser) = await Self.holdingHCI0(gates, log)
        let stopped = Task { try await gates.withGate("/org/bluez/hci0") { log.add("B in") } }
        let third = Task { try await gates.withGate("/org/bluez/hci0") { log.add("C in") } }
        try await Task.sleep(for: .milliseconds(100)) // both in line behind A
        stopped.cancel()
        let result = try await within(5, "the cancelled waiter to leave while A holds the gate") { await stopped.result }
        #expect(throws: CancellationError.self) { try result.get() }
        #expect(log.all == ["A in"], "B left while A still held the gate")
        releaser.yield()
        try await first.value
        try await third.value
        #expect(log.all == ["A in", "A out", "C in"])
        // The gate is free again, not held by the withdrawn waiter.
        try await gates.withGate("/org/bluez/hci0") { log.add("D in") }
        #expect(log.all.last == "D in")
    }
}
