import LiveState
import Platform

/// NDJSON, one update per line (docs/live-activity-updates.md): the default sink writes to standard
/// output, `--sink file:PATH` appends to a file that is synced to disk after each start and end, so a
/// crash loses at most content updates, never the lifecycle.
public final class LineSink: UpdateSink {
    public let name: String
    private let output: any LineOutput
    public private(set) var counters = SinkCounters()

    public init(name: String, output: any LineOutput) {
        self.name = name
        self.output = output
    }

    /// `--sink file:PATH`.
    public static func appending(toFile path: String) throws(SinkError) -> LineSink {
        LineSink(name: "file:\(path)", output: try AppendingFile(path: path))
    }

    public func accept(_ encoded: EncodedUpdate) throws(SinkError) {
        let update = encoded.update
        let line: [UInt8]
        do {
            line = try encoded.line.get()
        } catch {
            counters.failed += 1
            counters.lastError = "\(update.activityID)#\(update.sequence): \(error)"
            return
        }
        do {
            try output.write(line)
            if LatencyTrace.isOn { LatencyTrace.note(name, activity: update.activityID, sequence: update.sequence) }
            if update.event != .update { try output.syncLifecycle() }
        } catch {
            throw SinkError(sink: name, message: error)
        }
        counters.sent += 1
    }

    public func finish(grace: Double) {
        output.close()
    }

    /// A battery that runs out during sleep must not cost the lines already written.
    public func settle(within seconds: Double) {
        try? output.syncLifecycle()
    }
}

/// Where a line sink's bytes go.
public protocol LineOutput: AnyObject {
    /// One complete line, newline included. Throws a description of what failed.
    func write(_ line: [UInt8]) throws(LineOutputError)
    /// Called after a start or end: make it durable (files) or visible (buffered streams).
    func syncLifecycle() throws(LineOutputError)
    func close()
}

public struct LineOutputError: Error, Sendable, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}

extension SinkError {
    init(sink: String, message: LineOutputError) {
        self.init(sink: sink, message: message.description)
    }
}
