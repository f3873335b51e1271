/// Waiting with a deadline, so that a broken build fails a test instead of hanging it. The
/// deadlines are generous guards, never assertions about speed.
public struct TimedOut: Error, CustomStringConvertible {
    public let what: String
    public var description: String { "timed out waiting for \(what)" }
    public init(what: String) { self.what = what }
}

public func within<T: Sendable>(
    _ seconds: Double, _ what: String, _ body: @escaping @Sendable () async throws -> T
) async throws -> T {
    try await withThrowingTaskGroup(of: T.self) { group in
        group.addTask { try await body() }
        group.addTask {
            try await Task.sleep(for: .seconds(seconds))
            throw TimedOut(what: what)
        }
        defer { group.cancelAll() }
        return try await group.next()!
    }
}

/// Reads a stream from one task at a time; wraps the iterator so tests can take elements
/// one by one with deadlines.
public final class StreamReader<Element: Sendable>: @unchecked Sendable {
    private var iterator: AsyncStream<Element>.Iterator

    public init(_ stream: AsyncStream<Element>) { iterator = stream.makeAsyncIterator() }

    /// The next element, or nil when the stream ended.
    public func next(within seconds: Double = 10, _ what: String = "the next element") async throws -> Element? {
        try await within(seconds, what) { await self.iterator.next() }
    }
}
