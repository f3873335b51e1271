#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Sensors

/// Holds replay back to trace time (optionally sped up). Only when events are released changes:
/// what they carry is the trace's own time, so output is the same at any speed.
public struct ReplayPacer {
    public enum Pace: Sendable, Hashable {
        /// As fast as the CPU allows.
        case fastest
        /// `factor` trace seconds per wall second (1 = real time).
        case speed(factor: Double)
    }

    public let pace: Pace
    private var origin: (trace: Timestamp, wall: timespec)?

    public init(pace: Pace) { self.pace = pace }

    /// Sleeps until the wall clock reaches the moment `time` is due. Inlinable, so that in a fast
    /// replay the call before every event is only the check.
    @inlinable
    public mutating func wait(until time: Timestamp) {
        guard case let .speed(factor) = pace else { return }
        wait(until: time, factor: factor)
    }

    @usableFromInline
    mutating func wait(until time: Timestamp, factor: Double) {
        let now = Self.monotonicNow()
        guard let origin else {
            self.origin = (time, now)
            return
        }
        let dueAfter = time.seconds(since: origin.trace) / factor
        let elapsed = Double(now.tv_sec - origin.wall.tv_sec) + Double(now.tv_nsec - origin.wall.tv_nsec) / 1e9
        let remaining = dueAfter - elapsed
        guard remaining > 0 else { return }
        var request = timespec(tv_sec: Int(remaining), tv_nsec: Int((remaining - remaining.rounded(.down)) * 1e9))
        var left = timespec()
        while nanosleep(&request, &left) != 0, errno == EINTR { request = left }
    }

    private static func monotonicNow() -> timespec {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return now
    }
}
