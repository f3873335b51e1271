#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Dispatch
import Platform
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
    /// Microseconds a test said the machine slept (`simulateSleep`): added to `now()`, not seen by
    /// the kernel's timers. Always 0 outside tests.
    private let slept = Atomic<Int64>(0)

    private init(_ kind: Kind) { self.kind = kind }

    /// Real time: engine time is Unix time (CLOCK_REALTIME), as a live strap stamps its events.
    public static let real = SessionClock(.real)

    /// Trace time played at `speed` trace seconds per wall second, from the first `anchor(at:)`.
    public static func trace(speed: Double) -> SessionClock { SessionClock(.trace(speed: speed)) }

    /// A real clock shared with no other session, for a test to move ahead (`simulateSleep`) without
    /// the timers' clock seeing it: how a suspend looks to a timer set on a clock that stops while
    /// the machine sleeps (CLOCK_MONOTONIC).
    static func unsharedReal() -> SessionClock { SessionClock(.real) }

    /// The machine "slept" `seconds`: `now()` jumps ahead, armed timers do not notice.
    func simulateSleep(seconds: Double) {
        slept.add(Int64(seconds * 1_000_000), ordering: .relaxed)
    }

    /// Fixes the trace clock at its first event (later calls do nothing).
    func anchor(at time: Timestamp) {
        anchor.withLock { anchor in
            if anchor == nil { anchor = (time, Self.monotonicSeconds()) }
        }
    }

    /// Session seconds per wall second: a paced replay's speed, 1 for real time.
    public var speed: Double {
        if case let .trace(speed) = kind { return speed }
        return 1
    }

    /// Engine time now; nil for a trace clock before its first event.
    public func now() -> Timestamp? {
        switch kind {
        case .real:
            var spec = timespec()
            clock_gettime(CLOCK_REALTIME, &spec)
            return Timestamp(microsecondsSinceUnixEpoch: Int64(spec.tv_sec) * 1_000_000 + Int64(spec.tv_nsec) / 1000
                + slept.load(ordering: .relaxed))
        case let .trace(speed):
            guard let anchor = anchor.withLock({ $0 }) else { return nil }
            return anchor.trace.adding(seconds: (Self.monotonicSeconds() - anchor.wall) * speed)
        }
    }

    /// The kernel clock this session's timer runs on. Real time is Unix time, so its timer runs on
    /// the wall clock (CLOCK_REALTIME), which counts a suspend: a deadline that passed while the
    /// laptop slept fires at resume, not the time slept later as a CLOCK_MONOTONIC timer would.
    /// Trace time is paced on the monotonic clock its anchor was read from.
    var timerClock: ClockTimer.Clock {
        if case .real = kind { return .wall }
        return .monotonic
    }

    /// Sets `timer` (made on `timerClock`) to fire once engine time reaches `due`.
    func schedule(_ timer: ClockTimer, at due: Timestamp) {
        switch kind {
        case .real:
            timer.schedule(atNanoseconds: max(0, due.microsecondsSinceUnixEpoch - slept.load(ordering: .relaxed)) * 1000)
        case let .trace(speed):
            let seconds = now().map { max(0, due.seconds(since: $0) / speed) } ?? 0
            timer.schedule(atNanoseconds: ClockTimer.now(.monotonic) + Int64((seconds * 1e9).rounded(.up)))
        }
    }

    private static func monotonicSeconds() -> Double {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
    }
}
