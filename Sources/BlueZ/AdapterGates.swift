/// One connect at a time per adapter: controllers and bluetoothd handle parallel LE connects
/// badly (InProgress, aborted attempts). Straps on different adapters do not wait on each other.
/// A strap waiting in line can be cancelled (stopped) without waiting for the connect ahead of it.
public actor AdapterGates {
    private var busy: Set<String> = []
    /// Waiters per adapter, in order; resumed with true when the gate passes to them, false when
    /// their task was cancelled while waiting.
    private var queued: [String: [(id: Int, admit: CheckedContinuation<Bool, Never>)]] = [:]
    private var nextWaiter = 0

    public init() {}

    /// Runs `body` holding the adapter's gate; throws `CancellationError` when the task is
    /// cancelled before it got the gate.
    public func withGate<T: Sendable>(_ adapterPath: String, _ body: @Sendable () async throws -> T) async throws -> T {
        try await enter(adapterPath)
        defer { leave(adapterPath) }
        return try await body()
    }

    private func enter(_ adapter: String) async throws {
        try Task.checkCancellation()
        guard busy.contains(adapter) else {
            busy.insert(adapter)
            return
        }
        nextWaiter += 1
        let id = nextWaiter
        let admitted = await withTaskCancellationHandler {
            await withCheckedContinuation { queued[adapter, default: []].append((id, $0)) }
        } onCancel: {
            // Runs on the actor after the waiter above is queued (the actor is busy until then).
            Task { await self.withdraw(id, from: adapter) }
        }
        if !admitted { throw CancellationError() }
    }

    /// A cancelled waiter leaves the line (if the gate has not passed to it already).
    private func withdraw(_ id: Int, from adapter: String) {
        guard let index = queued[adapter]?.firstIndex(where: { $0.id == id }) else { return }
        let waiter = queued[adapter]!.remove(at: index)
        waiter.admit.resume(returning: false)
    }

    private func leave(_ adapter: String) {
        if var waiting = queued[adapter], !waiting.isEmpty {
            let next = waiting.removeFirst()
            queued[adapter] = waiting
            next.admit.resume(returning: true) // the gate passes straight to the next in line
        } else {
            busy.remove(adapter)
        }
    }
}
