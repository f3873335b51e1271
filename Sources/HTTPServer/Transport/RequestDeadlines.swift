#if canImport(Glibc)
import Glibc
#endif
import Platform
import Synchronization

/// Cuts off a connection whose request (headers and body) is not complete within its time: the
/// library only times a connection out after a pause, which a client sending a byte a second never
/// makes. One timer for all connections, set for the earliest deadline and not at all while no
/// request is on its way (an idle listener sleeps). Cutting off is `shutdown(2)` on the socket: the
/// library then sees the client gone and cleans up on its own thread, as for any closed connection.
final class RequestDeadlines: Sendable {
    private struct Entry {
        var descriptor: Int32
        /// Monotonic nanoseconds; nil while the request is being answered (a stream is not timed).
        var due: Int64?
    }

    private let nanoseconds: Int64
    private let entries = Mutex<[UInt: Entry]>([:])
    private let timer = Mutex<ClockTimer?>(nil)

    init(seconds: Double) {
        nanoseconds = Int64(seconds * 1e9)
        let timer = ClockTimer(.monotonic, queue: nil) { [weak self] in self?.expire() }
        self.timer.withLock { $0 = timer }
    }

    /// A connection was accepted: its first request must arrive in time.
    func opened(_ connection: UInt, descriptor: Int32) {
        guard descriptor >= 0 else { return }
        entries.withLock { $0[connection] = Entry(descriptor: descriptor, due: ClockTimer.now(.monotonic) + nanoseconds) }
        arm()
    }

    /// Its request is complete and being answered.
    func answering(_ connection: UInt) {
        entries.withLock { $0[connection]?.due = nil }
    }

    /// The answer went out and the connection stays open: the next request is timed afresh.
    func awaitingNext(_ connection: UInt) {
        let armed = entries.withLock { entries -> Bool in
            guard entries[connection] != nil else { return false }
            entries[connection]?.due = ClockTimer.now(.monotonic) + nanoseconds
            return true
        }
        if armed { arm() }
    }

    /// The library closed it (before it closes the socket, so a descriptor here is still this one).
    func closed(_ connection: UInt) {
        _ = entries.withLock { $0.removeValue(forKey: connection) }
    }

    func cancel() {
        timer.withLock { $0?.cancel() }
    }

    private func arm() {
        let earliest = entries.withLock { $0.values.compactMap(\.due).min() }
        guard let earliest else { return }
        timer.withLock { $0?.schedule(atNanoseconds: earliest) }
    }

    private func expire() {
        let now = ClockTimer.now(.monotonic)
        entries.withLock { entries in
            for (connection, entry) in entries {
                guard let due = entry.due, due <= now else { continue }
                shutdown(entry.descriptor, Int32(SHUT_RDWR))
                entries[connection]?.due = nil
            }
        }
        arm()
    }
}
