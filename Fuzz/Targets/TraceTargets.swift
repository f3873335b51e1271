import Sensors
import Trace

extension FuzzTarget {
    /// A header line the reader accepts is written back by `line` to the same header.
    static let traceHeader = FuzzTarget(name: "trace-header", summary: "the trace header line, written back") { bytes throws(ContractViolation) in
        guard let header = try? TraceHeader(parsing: String(decoding: bytes, as: UTF8.self)) else { return }
        let again: TraceHeader?
        do {
            again = try TraceHeader(parsing: header.line)
        } catch {
            throw ContractViolation("trace header: the reader refuses what the writer wrote (\(header.line)): \(error)")
        }
        try expectSame(header, again, "trace header written back")
    }

    /// A trace the reader reads to its end, written by the writer and read again, gives the same
    /// header and events; writing those again gives the same bytes.
    static let trace = FuzzTarget(name: "trace", summary: "the trace reader, written back by the trace writer") { bytes throws(ContractViolation) in
        guard let (header, events) = try? TraceFile.read(ScratchFile.write(bytes, to: "input.trace")) else { return }
        let written = try TraceFile.roundTrip(header: header, events: events, what: "trace")
        try expectSame(ScratchFile.read("written.trace"), written, "trace written twice")
    }
}

/// Writing traces and reading them back: the contract of the trace format and of every importer
/// (what an import writes, the reader reads).
enum TraceFile {
    static func read(_ path: String) throws(TraceReadError) -> (TraceHeader, [SensorEvent]) {
        let reader = try TraceReader(path: path)
        return (reader.header, try reader.readAll())
    }

    /// Writes `events` under `header` and reads them back; they must be the same, and the writer
    /// must take them (an importer's events are in time order and fit the header's version).
    /// Answers the bytes written.
    @discardableResult
    static func roundTrip(header: TraceHeader, events: [SensorEvent], what: String) throws(ContractViolation) -> [UInt8] {
        let path = ScratchFile.path("written.trace")
        do {
            let writer = try TraceWriter(path: path, header: header)
            for event in events { try writer.append(event) }
        } catch {
            throw ContractViolation("\(what): the trace writer refuses: \(error)")
        }
        let written = ScratchFile.read("written.trace")
        do {
            let (headerAgain, eventsAgain) = try read(path)
            try expectSame(header, headerAgain, "\(what): header written and read")
            try expectSame(events.count, eventsAgain.count, "\(what): number of events written and read")
            for (event, again) in zip(events, eventsAgain) { try expectSame(event, again, "\(what): event written and read") }
        } catch let violation as ContractViolation {
            throw violation
        } catch {
            throw ContractViolation("\(what): the trace reader refuses what the writer wrote: \(error)")
        }
        return written
    }
}
