import Foundation
import TestSupport
import Testing
@testable import CLI

@Suite struct ReplayCommandTests {
    @Test func bundledTraceReplaysByteIdenticallyRunToRun() {
        let first = runHRBridge(["replay", "--fast"])
        let second = runHRBridge(["replay", "--fast"])
        #expect(first.status == .success)
        #expect(!first.output.isEmpty)
        #expect(first.output == second.output)
    }

    @Test func pacedReplayPrintsExactlyWhatFastReplayPrints() throws {
        let directory = try TemporaryDirectory()
        let path = try directory.write("short.trace", """
        hrbridge-trace 1 start=2024-01-01T06:00:00Z
        0 connected
        0 notify 2a37 0648
        100000 notify 2a37 16490003
        250000 battery 80
        300000 notify 2a37 0e4a0c00

        """)
        for mode in [[], ["--samples"]] {
            let fast = runHRBridge(["replay", "--fast", path] + mode)
            let paced = runHRBridge(["replay", "--speed", "10", "--state-dir", directory.url.path, path] + mode)
            #expect(fast.status == .success)
            #expect(paced.output == fast.output)
            // Updates: start and end; samples: one line per 0x2A37 notification.
            #expect(fast.output.split(separator: "\n").count == (mode.isEmpty ? 2 : 3))
        }
    }

    @Test func malformedNotificationIsReportedAndSkipped() throws {
        let directory = try TemporaryDirectory()
        let path = try directory.write("bad-sample.trace", """
        hrbridge-trace 1 start=2024-01-01T06:00:00Z
        0 notify 2a37 0648
        1000000 notify 2a37 0748
        2000000 notify 2a37 0649

        """)
        let result = runHRBridge(["replay", "--fast", path, "--samples"])
        #expect(result.status == .success)
        #expect(result.output.split(separator: "\n").count == 2)
        #expect(result.log == "hrbridge: \(path):3: dropped malformed 0x2A37 value: flags promise a 16-bit rate but 1 byte follows\n")
    }

    @Test func malformedTraceLineExits65WithPathAndLine() throws {
        let directory = try TemporaryDirectory()
        let path = try directory.write("broken.trace", "hrbridge-trace 1 start=2024-01-01T06:00:00Z\n0 notify 2a37 0648\n5 notfy 2a37 0648\n")
        let result = runHRBridge(["replay", "--fast", path])
        #expect(result.status == .dataError)
        #expect(result.log.hasPrefix("hrbridge: \(path):3: unknown event kind 'notfy'"))
    }

    /// Year −1 once printed a negative activity id; a start outside 1970–9999 is a bad header (issue 15).
    @Test func startOutsideTheTraceYearsExits65() throws {
        let directory = try TemporaryDirectory()
        let path = try directory.write("old.trace", "hrbridge-trace 1 start=0000-01-01T00:00:00+00:01\n0 connected\n")
        let result = runHRBridge(["replay", "--fast", path])
        #expect(result.status == .dataError)
        #expect(result.log == "hrbridge: \(path):1: start '0000-01-01T00:00:00+00:01' is outside the years 1970–9999 a trace can hold\n")
    }
}
