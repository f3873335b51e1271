import FoundationEssentials

/// A point in time as whole microseconds since the Unix epoch. Integers keep replays exact:
/// no floating-point drift between a recorded trace and its replay.
public struct Timestamp: Sendable, Hashable, Comparable {
    public var microsecondsSinceUnixEpoch: Int64

    public init(microsecondsSinceUnixEpoch: Int64) {
        self.microsecondsSinceUnixEpoch = microsecondsSinceUnixEpoch
    }

    public init(unixSeconds: Int64) {
        self.init(microsecondsSinceUnixEpoch: unixSeconds * Self.microsecondsPerSecond)
    }

    public static let microsecondsPerSecond: Int64 = 1_000_000

    public var date: Date {
        Date(timeIntervalSince1970: Double(microsecondsSinceUnixEpoch) / Double(Self.microsecondsPerSecond))
    }

    /// Seconds since the Unix epoch, for wire formats that carry seconds.
    public var unixSeconds: Double {
        Double(microsecondsSinceUnixEpoch) / Double(Self.microsecondsPerSecond)
    }

    public func adding(microseconds: Int64) -> Timestamp {
        Timestamp(microsecondsSinceUnixEpoch: microsecondsSinceUnixEpoch + microseconds)
    }

    public func adding(seconds: Double) -> Timestamp {
        adding(microseconds: Int64((seconds * Double(Self.microsecondsPerSecond)).rounded()))
    }

    /// Seconds from `earlier` to this instant.
    public func seconds(since earlier: Timestamp) -> Double {
        Double(microsecondsSinceUnixEpoch - earlier.microsecondsSinceUnixEpoch) / Double(Self.microsecondsPerSecond)
    }

    public static func < (lhs: Timestamp, rhs: Timestamp) -> Bool {
        lhs.microsecondsSinceUnixEpoch < rhs.microsecondsSinceUnixEpoch
    }
}
