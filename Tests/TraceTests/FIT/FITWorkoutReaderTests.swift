import Sensors
import TestSupport
import Testing
@testable import Trace

/// What the reader makes of the messages it reads: beats placed in time, timer pauses, the
/// device's name, cadence by sport.
@Suite struct FITWorkoutReaderTests {
    static let time: UInt64 = 1_000_000_000

    func recording(_ build: (inout FITWriter) -> Void) throws -> WorkoutRecording {
        var writer = FITWriter()
        writer.define(localType: 0, global: 20, fields: [.uint32(253), .uint8(3), .uint8(4)])
        writer.define(localType: 1, global: 78, fields: [.uint16(0, count: 3)])
        writer.define(localType: 2, global: 21, fields: [.uint32(253), .enumeration(0), .enumeration(1)])
        build(&writer)
        return try WorkoutRecording(fit: writer.file(), path: "run.fit", source: "run.fit")
    }

    func record(_ writer: inout FITWriter, at seconds: UInt64, cadence: UInt64 = 80) {
        writer.data(localType: 0, [.number(Self.time + seconds), .number(120), .number(cadence)])
    }

    func hrv(_ writer: inout FITWriter, _ milliseconds: [UInt64]) {
        writer.data(localType: 1, [.numbers(milliseconds + [UInt64](repeating: 0xFFFF, count: 3 - milliseconds.count))])
    }

    /// (seconds after the start, milliseconds) of each beat.
    func beats(_ recording: WorkoutRecording) -> [[Double]] {
        recording.beats.map { [$0.time.seconds(since: recording.start), $0.milliseconds] }
    }

    @Test func beatsChainFromTheStartAndAreNeverBehindTheirRecord() throws {
        let recording = try recording { writer in
            record(&writer, at: 0)
            record(&writer, at: 1)
            hrv(&writer, [1093])          // the first beat: one interval after the start, not after this record
            hrv(&writer, [500, 510])      // the chain goes on
            record(&writer, at: 10)       // the strap lost beats: the chain (at 2.103 s) is behind
            hrv(&writer, [600])           // so this beat ends at the record's time
            hrv(&writer, [700])
            record(&writer, at: 11)
            hrv(&writer, [900, 900])      // ahead of the next record (12.2 s, 13.1 s): left as it is
            record(&writer, at: 12)
        }
        #expect(beats(recording) == [[1.093, 1093], [1.593, 500], [2.103, 510], [10, 600], [10.7, 700], [11.6, 900], [12.5, 900]])
    }

    /// Beats before the first record chain from the last time the file gave (the timer's start).
    @Test func beatsBeforeAnyRecordStartAtTheLatestTime() throws {
        let recording = try recording { writer in
            writer.data(localType: 2, [.number(Self.time), .number(0), .number(0)])
            hrv(&writer, [800])
            record(&writer, at: 2)
        }
        #expect(beats(recording) == [[-1.2, 800]]) // the start is the first record's time
    }

    @Test func timerStopsArePausesUntilTheNextStart() throws {
        func event(_ writer: inout FITWriter, at seconds: UInt64, event: UInt64 = 0, _ type: UInt64) {
            writer.data(localType: 2, [.number(Self.time + seconds), .number(event), .number(type)])
        }
        let recording = try recording { writer in
            event(&writer, at: 0, 0)      // the workout's own start: nothing to end
            record(&writer, at: 0)
            event(&writer, at: 5, 1)      // stop
            event(&writer, at: 6, 1)      // stop while stopped: no new pause
            event(&writer, at: 8, 0)      // start
            event(&writer, at: 9, 0)      // start while running: nothing
            event(&writer, at: 9, event: 42, 1) // another event's stop: not the timer's
            event(&writer, at: 12, 4)     // stop all
        }
        let start = recording.start
        #expect(recording.pauses == [
            .init(start: start.adding(seconds: 5), end: start.adding(seconds: 8)),
            .init(start: start.adding(seconds: 12), end: nil),
        ])
    }

    /// Cadence is doubled (strides to steps) only when every sport the file names is running.
    @Test(arguments: [([UInt64](), 80), ([1], 160), ([2], 80), ([1, 2], 80), ([1, 1], 160)])
    func cadenceCountsStepsOnlyForARun(sports: [UInt64], expected: Int) throws {
        let recording = try recording { writer in
            record(&writer, at: 0)
            writer.define(localType: 3, global: 18, fields: [.uint32(253), .enumeration(5)])
            for sport in sports { writer.data(localType: 3, [.number(Self.time), .number(sport)]) }
        }
        #expect(recording.samples[0].cadence == expected)
    }

    /// The product name when the file gives one, from `file_id` or the creator's `device_info`
    /// (device 0; another device's, such as the strap's, is not the recorder); else the numbers.
    @Test func theDeviceIsNamedByTheFile() throws {
        func named(_ build: (inout FITWriter) -> Void) throws -> String? {
            try recording { writer in
                build(&writer)
                record(&writer, at: 0)
            }.device
        }
        #expect(try named { _ in } == nil)
        #expect(try named { writer in
            writer.define(localType: 4, global: 0, fields: [.uint16(1), .uint16(2)])
            writer.data(localType: 4, [.number(1), .number(0xFFFF)])
        } == "manufacturer 1")
        #expect(try named { writer in
            writer.define(localType: 4, global: 0, fields: [.uint16(1), .uint16(2)])
            writer.data(localType: 4, [.number(1), .number(2697)])
            writer.define(localType: 5, global: 23, fields: [.uint8(0), .string(27, size: 12)])
            writer.data(localType: 5, [.number(1), .text("HRM-Pro")])
        } == "manufacturer 1 product 2697")
        #expect(try named { writer in
            writer.define(localType: 4, global: 0, fields: [.uint16(1), .uint16(2)])
            writer.data(localType: 4, [.number(1), .number(2697)])
            writer.define(localType: 5, global: 23, fields: [.uint8(0), .string(27, size: 12)])
            writer.data(localType: 5, [.number(0), .text("fenix 5")])
        } == "fenix 5")
    }
}
