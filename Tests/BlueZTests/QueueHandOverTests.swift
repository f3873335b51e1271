@testable import BlueZ
import Dispatch
#if canImport(Glibc)
import Glibc
#endif
import Synchronization
import Testing

/// The socket reader's hand-over: its work runs on the queue, after what was queued before it, and
/// the caller goes on only once it has run.
@Suite(.timeLimit(.minutes(1))) struct QueueHandOverTests {
    final class Log: Sendable {
        let entries = Mutex<[String]>([])
        func add(_ entry: String) { entries.withLock { $0.append(entry) } }
        var all: [String] { entries.withLock { $0 } }
    }

    /// The function form is what the per-notification path was measured with: from the second
    /// hand-over on, on the same queue (the work's `dispatchPrecondition` checks that).
    @Test func handOversAfterTheFirstTakeTheFunctionForm() {
        let queue = DispatchQueue(label: "test")
        let runs = Mutex(0)
        let handOver = QueueHandOver(queue: queue) {
            dispatchPrecondition(condition: .onQueue(queue))
            runs.withLock { $0 += 1 }
        }
        #expect(!handOver.usesFunctionForm)
        handOver.run()
        #expect(handOver.usesFunctionForm)
        handOver.run()
        handOver.run()
        #expect(runs.withLock { $0 } == 3)
    }

    @Test func theWorkRunsOnTheQueueInItsOrderAndIsDoneOnReturn() {
        let queue = DispatchQueue(label: "test")
        let log = Log()
        let handOver = QueueHandOver(queue: queue) {
            dispatchPrecondition(condition: .onQueue(queue))
            log.add("work")
        }
        let gate = DispatchSemaphore(value: 0)
        queue.async {
            gate.wait() // holds the queue until the hand-over has been asked for
            log.add("queued before")
        }
        let caller = Thread.start {
            handOver.run()
            log.add("returned")
        }
        usleep(50_000) // the caller is most likely waiting on the held queue by now
        gate.signal()
        caller.wait()
        handOver.run()
        #expect(log.all == ["queued before", "work", "returned", "work"])
    }

    /// A thread to call from, joined with `wait()`.
    struct Thread {
        let done: DispatchSemaphore

        static func start(_ body: @escaping @Sendable () -> Void) -> Thread {
            let done = DispatchSemaphore(value: 0)
            DispatchQueue.global().async {
                body()
                done.signal()
            }
            return Thread(done: done)
        }

        func wait() { done.wait() }
    }
}
