/// One connect at a time per adapter: controllers and bluetoothd handle parallel LE connects
/// badly (InProgress, aborted attempts). Straps on different adapters do not wait on each other.
public actor AdapterGates {
    private var busy: Set<String> = []
    private var queued: [String: [CheckedContinuation<Void, Never>]] = [:]

    public init() {}

    public func withGate<T: Sendable>(_ adapterPath: String, _ body: @Sendable () async throws -> T) async throws -> T {
        await enter(adapterPath)
        defer { leave(adapterPath) }
        return try await body()
    }

    private func enter(_ adapter: String) async {
        guard busy.contains(adapter) else {
            busy.insert(adapter)
            return
        }
        await withCheckedContinuation { queued[adapter, default: []].append($0) }
    }

    private func leave(_ adapter: String) {
        if var waiting = queued[adapter], !waiting.isEmpty {
            let next = waiting.removeFirst()
            queued[adapter] = waiting
            next.resume() // the gate passes straight to the next in line
        } else {
            busy.remove(adapter)
        }
    }
}
