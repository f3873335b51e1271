// FIT import benchmark (run on demand: scripts/perf/fit-import [HOURS]).
//
// Writes a 12-hour 1 Hz FIT activity with the tests' FITWriter: a record a second (heart rate,
// distance, speed, cadence; compressed timestamp headers, a full timestamp every 5 minutes) and
// an hrv message a second with one or two RR intervals, as a watch with a strap writes them.
// Then measures, median of several runs:
//   read    — the file's bytes into memory, nothing else;
//   decode  — WorkoutRecording(fit:): the protocol decoder and the recording built from it;
//   import  — `hrbridge import fit FILE -o OUT` in-process: decode, trace events, trace file.
#if canImport(Glibc)
import Glibc
#endif
import CLI
import Foundation
import TestSupport
import Trace

let hours = Double(CommandLine.arguments.dropFirst().first ?? "12") ?? 12
let repetitions = 9
let seconds = Int(hours * 3600)
let directory = try TemporaryDirectory()
let path = directory.path("bench.fit"), output = directory.path("bench.trace")

var random = SplitMix64(seed: 1)
var writer = FITWriter()
writer.define(localType: 0, global: 0, fields: [.enumeration(0), .uint16(1), .uint16(2)])
writer.data(localType: 0, [.number(4), .number(1), .number(2697)])
writer.define(localType: 1, global: 20, fields: [.uint32(253), .uint8(3), .uint8(4), .uint32(5), .uint32(73)])
writer.define(localType: 2, global: 20, fields: [.uint8(3), .uint8(4), .uint32(5), .uint32(73)])
writer.define(localType: 3, global: 78, fields: [.uint16(0, count: 5)])
let fitStart: UInt64 = 1_000_000_000
var distance: UInt64 = 0
for second in 0..<seconds {
    let time = fitStart + UInt64(second)
    let bpm = UInt64(135 + 35 * sin(Double(second) / 600))
    distance += 280 + random.below(40)
    let values: [FITWriter.Value] = [.number(bpm), .number(80 + random.below(10)), .number(distance), .number(2800 + random.below(400))]
    if second % 300 == 0 {
        writer.data(localType: 1, [.number(time)] + values)
    } else {
        writer.data(localType: 2, values, compressedTimeOffset: UInt32(time & 0x1F))
    }
    let rr = 60_000 / bpm
    let intervals = (0..<Int(1 + random.below(2))).map { _ in rr + random.below(20) }
    writer.data(localType: 3, [.numbers(intervals + [UInt64](repeating: 0xFFFF, count: 5 - intervals.count))])
}
let file = writer.file()
try Data(file).write(to: URL(fileURLWithPath: path))

func time(_ body: () throws -> Void) rethrows -> Double {
    var before = timespec(), after = timespec()
    clock_gettime(CLOCK_MONOTONIC, &before)
    try body()
    clock_gettime(CLOCK_MONOTONIC, &after)
    return Double(after.tv_sec - before.tv_sec) + Double(after.tv_nsec - before.tv_nsec) / 1e9
}

func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }

let readTimes = try (0..<repetitions).map { _ in
    try time {
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        precondition(bytes.count == file.count)
    }
}
let decodeTimes = try (0..<repetitions).map { _ in
    try time {
        let recording = try WorkoutRecording(fit: [UInt8](try Data(contentsOf: URL(fileURLWithPath: path))), path: path, source: "bench.fit")
        precondition(recording.samples.count == seconds)
    }
}
// The command's own report ("wrote N notifications") goes to /dev/null with the rest of stderr.
let savedStderr = dup(STDERR_FILENO)
let devNull = open("/dev/null", O_WRONLY)
let importTimes = (0..<repetitions).map { _ -> Double in
    dup2(devNull, STDERR_FILENO)
    defer { dup2(savedStderr, STDERR_FILENO) }
    return time { precondition(HRBridge.main(["import", "fit", path, "-o", output]) == 0) }
}

let read = median(readTimes), decode = median(decodeTimes), whole = median(importTimes)
func line(_ name: String, _ value: Double) -> String {
    "  \(name)\(String(format: "%8.1f ms", value * 1000))   \(String(format: "%6.2f M records/s", Double(seconds) / value / 1e6))"
}
print("""
FIT import benchmark: \(hours) h at 1 Hz, \(seconds) records + \(seconds) hrv messages, \(file.count / 1024) KiB, median of \(repetitions) runs
\(line("read the file              ", read))
\(line("decode to WorkoutRecording ", decode))
\(line("hrbridge import fit (whole)", whole))
  target: well under 1 s for the whole import  \(whole < 0.5 ? "met" : "MISSED")
""")
