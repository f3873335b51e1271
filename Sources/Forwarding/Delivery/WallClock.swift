import FoundationEssentials
import Sensors

/// The real time, for what must not follow a replayed trace's clock (the provider token's `iat`,
/// push tokens' registration times).
public enum WallClock {
    public static func now() -> Timestamp {
        Timestamp(microsecondsSinceUnixEpoch: Int64((Date().timeIntervalSince1970 * 1_000_000).rounded()))
    }

    /// Whole Unix seconds, as push tokens' `issuedAt` and APNs' times come.
    public static func unixSeconds() -> Int64 { now().microsecondsSinceUnixEpoch / Timestamp.microsecondsPerSecond }
}
