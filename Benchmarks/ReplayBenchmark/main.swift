// Replay throughput benchmark (run on demand: scripts/perf/replay).
//
// Writes a 12-hour, 1 Hz trace with RR intervals, then measures in the same run:
//   floor   — read the file and hex-decode every notification, nothing else;
//   reader  — TraceReader alone: lines to StrapEvents;
//   replay  — `hrbridge replay --fast` in-process, output to /dev/null;
//   process — the release binary as a child process, for wall time and peak RSS.
// Prints samples/s for each, replay/floor, and the targets (≥ 2 M samples/s, ≤ 2× the floor: issue 14).
#if canImport(Glibc)
import Glibc
#endif
import CLI
import Foundation
import Sensors
import Trace

let hours = Double(CommandLine.arguments.dropFirst().first ?? "12") ?? 12
let repetitions = 15
let samples = Int(hours * 3600)
let path = FileManager.default.temporaryDirectory.appendingPathComponent("hrbridge-bench-\(getpid()).trace").path
defer { unlink(path) }

// A plausible workout: a slow swing between 100 and 170 bpm with beat-to-beat jitter.
var random = SystemRandomNumberGenerator()
let start = RecordingImport.defaultStart
let writer = try TraceWriter(path: path, header: TraceHeader(start: start, name: "benchmark"))
try writer.append(SensorEvent(time: start, kind: .connected))
for second in 0..<samples {
    let bpm = 135 + 35 * sin(Double(second) / 600)
    let rr = UInt16(60 / bpm * 1024)
    let intervals = (0..<Int.random(in: 1...3, using: &random)).map { _ in rr &+ UInt16.random(in: 0...20, using: &random) }
    let value = HeartRateMeasurement(beatsPerMinute: UInt16(bpm), sensorContact: .detected, rrIntervals: intervals).encoded()
    try writer.append(SensorEvent(time: start.adding(microseconds: Int64(second) * 1_000_000), kind: .notification(characteristic: .heartRateMeasurement, value: value)))
}
let fileSize = (try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0

func seconds(_ body: () -> Void) -> Double {
    var before = timespec(), after = timespec()
    clock_gettime(CLOCK_MONOTONIC, &before)
    body()
    clock_gettime(CLOCK_MONOTONIC, &after)
    return Double(after.tv_sec - before.tv_sec) + Double(after.tv_nsec - before.tv_nsec) / 1e9
}

func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }

/// The floor: the whole file read in 64 KiB chunks, each line found with memchr, and the last
/// field of each line hex-decoded. Any replay must at least do this much.
func readAndDecode() -> Int {
    let descriptor = open(path, O_RDONLY)
    defer { close(descriptor) }
    var buffer = [UInt8](repeating: 0, count: 1 << 17)
    var decoded: [UInt8] = []
    var count = 0
    var pending = 0
    while true {
        let read = buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress! + pending, $0.count - pending) }
        guard read > 0 else { break }
        let end = pending + read
        var lineStart = 0
        buffer.withUnsafeBufferPointer { bytes in
            while let found = memchr(bytes.baseAddress! + lineStart, 0x0A, end - lineStart) {
                let newline = bytes.baseAddress!.distance(to: found.assumingMemoryBound(to: UInt8.self))
                var space = newline
                while space > lineStart, bytes[space - 1] != UInt8(ascii: " ") { space -= 1 }
                if Hex.decodeStrict(UnsafeBufferPointer(rebasing: bytes[space..<newline]), replacing: &decoded) { count += 1 }
                lineStart = newline + 1
            }
        }
        pending = end - lineStart
        buffer.withUnsafeMutableBytes { _ = memmove($0.baseAddress!, $0.baseAddress! + lineStart, pending) }
    }
    return count
}

let floorTimes = (0..<repetitions).map { _ in seconds { precondition(readAndDecode() >= samples) } }

/// The trace reader alone: every line parsed into a SensorEvent, nothing downstream.
let readerTimes = (0..<repetitions).map { _ in
    seconds {
        let reader = try! TraceReader(path: path)
        var count = 0
        while (try! reader.next()) != nil { count += 1 }
        precondition(count > samples)
    }
}

// In-process replay with stdout pointed at /dev/null.
let savedStdout = dup(STDOUT_FILENO)
let devNull = open("/dev/null", O_WRONLY)
let replayTimes = (0..<repetitions).map { _ -> Double in
    dup2(devNull, STDOUT_FILENO)
    defer { dup2(savedStdout, STDOUT_FILENO) }
    return seconds { precondition(HRBridge.main(["replay", "--fast", path]) == 0) }
}

// The built binary as a child: wall time including start-up, and its peak RSS.
let binary = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("hrbridge").path
var childWall = 0.0
var childPeakKiB = 0
if FileManager.default.isExecutableFile(atPath: binary) {
    var pid: pid_t = 0
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0)
    let arguments = [binary, "replay", "--fast", path]
    var argv = arguments.map { strdup($0) } + [nil]
    childWall = seconds {
        precondition(posix_spawn(&pid, binary, &actions, nil, &argv, environ) == 0)
        var status: Int32 = 0
        var usage = rusage()
        wait4(pid, &status, 0, &usage)
        childPeakKiB = usage.ru_maxrss
    }
    argv.forEach { free($0) }
}

let floor = median(floorTimes), reader = median(readerTimes), replay = median(replayTimes)
func rate(_ time: Double) -> String { String(format: "%.2f M samples/s", Double(samples) / time / 1e6) }
print("""
replay benchmark: \(hours) h trace, \(samples) samples, \(fileSize / 1024) KiB, median of \(repetitions) runs
  floor  (read + hex-decode)   \(String(format: "%8.2f ms", floor * 1000))   \(rate(floor))
  TraceReader events only       \(String(format: "%8.2f ms", reader * 1000))   \(rate(reader))
  replay --fast (in-process)   \(String(format: "%8.2f ms", replay * 1000))   \(rate(replay))
  replay / floor               \(String(format: "%8.2f x", replay / floor))   target ≤ 2.00 x  \(replay / floor <= 2 ? "met" : "MISSED")
  replay throughput target     ≥ 2.00 M samples/s  \(Double(samples) / replay >= 2e6 ? "met" : "MISSED")
  hrbridge process             \(String(format: "%8.2f ms", childWall * 1000)) wall incl. start-up, peak RSS \(childPeakKiB / 1024) MiB
""")
