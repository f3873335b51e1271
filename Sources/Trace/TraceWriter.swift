#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Platform
import Sensors

/// Writes a trace: the header, then one `write(2)` per event, so a killed process loses at
/// most the line being written and nothing sits in a user-space buffer.
public final class TraceWriter {
    public let path: String
    public let header: TraceHeader
    private let descriptor: Int32

    public enum Failure: Error, Sendable, Hashable, CustomStringConvertible {
        case cannotCreate(path: String, reason: String)
        case writeFailed(path: String, reason: String)
        /// Events must be appended in time order: the format's offsets never go back.
        case outOfOrder(path: String, time: Timestamp)
        /// A version-1 trace holds one strap's events only, and no pause or resume.
        case sensorNotDeclared(path: String, sensor: SensorRole)
        case pauseNotDeclared(path: String)

        public var description: String {
            switch self {
            case let .cannotCreate(path, reason): "\(path): cannot create trace: \(reason)"
            case let .writeFailed(path, reason): "\(path): write failed: \(reason)"
            case let .outOfOrder(path, time): "\(path): event at \(UTCTimestampText.format(time)) is before the previous one"
            case let .sensorNotDeclared(path, sensor): "\(path): a version-\(TraceHeader.singleSensorVersion) trace cannot hold the \(sensor.rawValue) sensor's events"
            case let .pauseNotDeclared(path): "\(path): a version-\(TraceHeader.singleSensorVersion) trace cannot hold a pause or resume"
            }
        }
    }

    private var lastOffset: Int64 = 0
    /// Bytes of whole lines written: a line that fails half-way (a full disk) is cut back to this, so
    /// the trace ends on its last whole line and reads back up to there.
    private var length: Int64 = 0

    /// Creates (or truncates) `path` and writes the header.
    public init(path: String, header: TraceHeader) throws(Failure) {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_APPEND | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw .cannotCreate(path: path, reason: String(cString: strerror(errno)))
        }
        self.path = path
        self.header = header
        self.descriptor = descriptor
        try writeLine(header.line)
    }

    deinit { close(descriptor) }

    public func append(_ event: SensorEvent) throws(Failure) {
        let offset = event.time.microsecondsSinceUnixEpoch - header.start.microsecondsSinceUnixEpoch
        guard offset >= lastOffset else { throw .outOfOrder(path: path, time: event.time) }
        guard event.sensor == .strap || header.holdsSeveralSensors else { throw .sensorNotDeclared(path: path, sensor: event.sensor) }
        guard !event.kind.isTimerChange || header.holdsSeveralSensors else { throw .pauseNotDeclared(path: path) }
        lastOffset = offset
        try writeLine(TraceEventLine.format(offset: offset, event: event))
    }

    private func writeLine(_ line: String) throws(Failure) {
        var bytes = Array(line.utf8)
        bytes.append(UInt8(ascii: "\n"))
        if let stop = writeAll(descriptor, bytes) {
            if stop.written > 0 { _ = ftruncate(descriptor, off_t(length)) }
            throw .writeFailed(path: path, reason: String(cString: strerror(stop.code)))
        }
        length += Int64(bytes.count)
    }
}
