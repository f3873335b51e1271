import Dispatch

/// Commands and sessions are synchronous; they run their async work (the buses, BlueZ) here and wait.
/// The main thread is not one of the concurrency pool's, so blocking it starves nothing.
public func runBlocking<T: Sendable>(_ body: @escaping @Sendable () async -> T) -> T {
    let done = DispatchSemaphore(value: 0)
    let result = ResultBox<T>()
    Task {
        result.value = await body()
        done.signal()
    }
    done.wait()
    return result.value!
}

// Written once by the task before the semaphore is signalled, read only after the wait returns.
private final class ResultBox<T>: @unchecked Sendable {
    var value: T?
}
