#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Sensors
import Synchronization

/// The session's time: what "now" is in the engine's terms, and how long the wall clock must run
/// until an engine time is due. A live strap uses the real clock (events carry real times); a paced
/// replay runs the trace's clock, anchored at its first event and scaled by the speed.
public final class SessionClock: Sendable {
    private enum Kind {
        case real
        case trace(speed: Double)
    }

    private let kind: Kind
    /// Trace time ↔ monotonic seconds, fixed at the first event of a paced replay.
    private let anchor = Mutex<(trace: Timestamp, wall: Double)?>(nil)

    private init(_ kind: Kind) { self.kind = kind }

    /// Real time: engine time is Unix time (CLOCK_REALTIME), as a live strap stamps its events.
    public static let real = SessionClock(.real)

    /// Trace time played at `speed` trace seconds per wall second, from the first `anchor(at:)`.
    public static func trace(speed: Double) -> SessionClock { SessionClock(.trace(speed: speed)) }

    /// Fixes the trace clock at its first event (later calls do nothing).
    func anchor(at time: Timestamp) {
        anchor.withLock { anchor in
            if anchor == nil { anchor = (time, Self.monotonicSeconds()) }
        }
    }

    /// Engine time now; nil for a trace clock before its first event.
    public func now() -> Timestamp? {
        switch kind {
        case .real:
            var spec = timespec()
            clock_gettime(CLOCK_REALTIME, &spec)
            return Timestamp(microsecondsSinceUnixEpoch: Int64(spec.tv_sec) * 1_000_000 + Int64(spec.tv_nsec) / 1000)
        case let .trace(speed):
            guard let anchor = anchor.withLock({ $0 }) else { return nil }
            return anchor.trace.adding(seconds: (Self.monotonicSeconds() - anchor.wall) * speed)
        }
    }

    /// Wall seconds until `time` is due (0 when it is due already or the clock is not anchored yet).
    func secondsUntil(_ time: Timestamp) -> Double {
        guard let now = now() else { return 0 }
        let speed: Double = switch kind {
        case .real: 1
        case let .trace(speed): speed
        }
        return max(0, time.seconds(since: now) / speed)
    }

    private static func monotonicSeconds() -> Double {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
    }
}
