#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CSystem
import Platform
import Sensors

/// Reads a trace file event by event. Every failure is a `TraceReadError` naming the file and
/// line; no input makes it trap.
public final class TraceReader {
    public let path: String
    public let header: TraceHeader
    /// The line of the event `next()` returned last (1 is the header).
    public var lineNumber: Int { cursor.pointee.lineNumber }

    /// Everything `next()` changes, behind a pointer the reader owns. A class's stored `var` costs a
    /// dynamic exclusivity check on every access (a runtime call, several per event);
    /// those checks guard against overlapping access, and a reader is used by one caller at a time
    /// (it is not Sendable, and `next()` never re-enters itself).
    private let cursor: UnsafeMutablePointer<Cursor>
    private let descriptor: Int32
    private let ownsDescriptor: Bool

    /// Opens `path`; `-` reads standard input.
    public convenience init(path: String) throws(TraceReadError) {
        if path == "-" {
            try self.init(path: "<stdin>", descriptor: STDIN_FILENO, ownsDescriptor: false)
            return
        }
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw .unreadable(path: path, errno: errno) }
        try self.init(path: path, descriptor: descriptor, ownsDescriptor: true)
    }

    /// Reads `bytes` (a trace the binary carries) as if from a file called `name`: through an
    /// in-memory file, so the reader's one path from descriptor to events serves it too.
    public convenience init(name: String, bytes: [UInt8]) throws(TraceReadError) {
        let descriptor = hr_memory_file(name)
        guard descriptor >= 0 else { throw .unreadable(path: name, errno: errno) }
        if let stop = writeAll(descriptor, bytes) {
            close(descriptor)
            throw .unreadable(path: name, errno: stop.code)
        }
        lseek(descriptor, 0, SEEK_SET)
        try self.init(path: name, descriptor: descriptor, ownsDescriptor: true)
    }

    init(path: String, descriptor: Int32, ownsDescriptor: Bool) throws(TraceReadError) {
        self.path = path
        self.descriptor = descriptor
        self.ownsDescriptor = ownsDescriptor
        var lines = LineReader(descriptor: descriptor)
        let header: TraceHeader?
        do {
            header = try Self.read(&lines, path: path, line: 1) { line throws(TraceLineError) in
                try TraceHeader(parsing: String(decoding: line, as: UTF8.self))
            }
        } catch {
            if ownsDescriptor { close(descriptor) }
            throw error
        }
        guard let header else {
            if ownsDescriptor { close(descriptor) }
            throw .malformed(path: path, line: 1, reason: "empty file: no trace header")
        }
        self.header = header
        cursor = .allocate(capacity: 1)
        cursor.initialize(to: Cursor(lines: lines, start: header.start, namesSensors: header.holdsSeveralSensors))
    }

    deinit {
        cursor.deinitialize(count: 1)
        cursor.deallocate()
        if ownsDescriptor { close(descriptor) }
    }

    /// What the events are timed from: the header's start, unless moved (`replay --from-now` plays
    /// a trace as if it began now). The offsets between events never change.
    public var start: Timestamp {
        get { cursor.pointee.start }
        set { cursor.pointee.start = newValue }
    }

    /// The next event with its absolute time (`start` + its offset), or nil at the end.
    public func next() throws(TraceReadError) -> SensorEvent? {
        try cursor.pointee.next(path: path)
    }

    /// `next()` for a loop that keeps one event variable: replaces `event` with the next event and
    /// answers true, or answers false at the end (leaving `event` without a notification value).
    /// A non-optional event is what makes this cheaper per line: an optional event in memory is
    /// destroyed through its type's generic value witness (an indirect call), `event` directly.
    public func next(into event: inout SensorEvent) throws(TraceReadError) -> Bool {
        event.kind = .connected // lets go of the previous value, so the reader reuses its storage
        guard let next = try cursor.pointee.next(path: path) else { return false }
        event = next
        return true
    }

    /// Reads every remaining event; for small traces and tests.
    public func readAll() throws(TraceReadError) -> [SensorEvent] {
        var events: [SensorEvent] = []
        while let event = try next() { events.append(event) }
        return events
    }

    /// The reading position and what the next line is checked against.
    private struct Cursor {
        var lines: LineReader
        var start: Timestamp
        let namesSensors: Bool
        var lineNumber = 1
        var previousOffset: Int64 = 0
        /// The storage of the previous notification's value, reused when the caller has let go of that
        /// event (the usual replay loop): no allocation per line. A caller that keeps events gets
        /// fresh storage by copy-on-write.
        var valueStorage: [UInt8] = []

        @inline(__always) // one layer less per line for next(into:), the replay's
        mutating func next(path: String) throws(TraceReadError) -> SensorEvent? {
            var value: [UInt8] = []
            swap(&value, &valueStorage) // unique here unless the caller still holds the previous event
            defer { swap(&value, &valueStorage) }
            while true {
                let number = lineNumber + 1
                let parsed = try TraceReader.read(&lines, path: path, line: number) { line throws(TraceLineError) -> (Int64, SensorRole, SensorEvent.Kind)? in
                    guard let first = line.first(where: { $0 != UInt8(ascii: " ") && $0 != UInt8(ascii: "\t") }),
                          first != UInt8(ascii: "#")
                    else { return nil }
                    return try TraceEventLine.parse(line, namesSensors: namesSensors, valueStorage: &value)
                }
                lineNumber = number
                guard let outcome = parsed else { return nil }
                guard let (offset, sensor, kind) = outcome else { continue }
                guard offset >= previousOffset else {
                    throw .malformed(
                        path: path, line: number,
                        reason: "offset \(offset) goes back in time (previous event at \(previousOffset))"
                    )
                }
                previousOffset = offset
                return SensorEvent(time: start.adding(microseconds: offset), kind: kind, sensor: sensor)
            }
        }
    }

    private static func read<Result>(
        _ lines: inout LineReader, path: String, line: Int,
        _ body: (UnsafeBufferPointer<UInt8>) throws(TraceLineError) -> Result
    ) throws(TraceReadError) -> Result? {
        do {
            return try lines.nextLine(body)
        } catch let error as TraceLineError {
            throw .malformed(path: path, line: line, reason: error.reason)
        } catch LineReader.Failure.lineTooLong {
            throw .malformed(path: path, line: line, reason: "line is longer than \(LineReader.maximumLineLength) bytes")
        } catch LineReader.Failure.readFailed(let code) {
            throw .unreadable(path: path, errno: code)
        } catch {
            throw .unreadable(path: path, reason: "\(error)")
        }
    }
}
