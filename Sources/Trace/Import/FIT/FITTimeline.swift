import Sensors

/// The file's clock as the decoder goes: the last full timestamp (field 253 of any message), from
/// which a compressed timestamp header counts. Such a header carries only the low 5 bits of its
/// time, which is less than 32 s after the last one: the same 32 s window when the bits are not
/// below the last time's, else the next window (a rollover).
struct FITTimeline {
    private(set) var last: UInt32?

    mutating func sawTimestamp(_ time: UInt32) { last = time }

    /// The time of a compressed timestamp header; nil before any full timestamp.
    mutating func compressed(offset: UInt32) -> UInt32? {
        guard let last else { return nil }
        var time = last & ~0x1F &+ offset
        if offset < last & 0x1F { time &+= 0x20 }
        self.last = time
        return time
    }

    /// FIT's `date_time`: seconds since 1989-12-31T00:00:00Z.
    static func timestamp(_ fitSeconds: UInt32) -> Timestamp {
        Timestamp(unixSeconds: unixSecondsAtEpoch + Int64(fitSeconds))
    }

    static let unixSecondsAtEpoch: Int64 = 631_065_600
}
