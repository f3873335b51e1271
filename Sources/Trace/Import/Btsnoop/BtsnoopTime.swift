import Sensors

/// btsnoop timestamps count microseconds since midnight, January 1st of year 0 (the format's
/// "nominal Gregorian" epoch). The distance to the Unix epoch is the constant BlueZ
/// (`src/shared/btsnoop.c`, via 2000-01-01) and Wireshark both use: 0x00DCDDB30F2F8000
/// = 62,168,256,000,000,000 µs = 719,540 days. It is not what a proleptic Gregorian calendar
/// gives (719,528 days), so it is taken as the format defines it rather than computed.
enum BtsnoopTime {
    static let unixEpoch: UInt64 = 0x00DC_DDB3_0F2F_8000

    /// nil when the time is too far from 1970 to be a microsecond `Timestamp`.
    static func timestamp(_ btsnoopMicroseconds: UInt64) -> Timestamp? {
        let sinceUnixEpoch = btsnoopMicroseconds >= unixEpoch
            ? Int64(exactly: btsnoopMicroseconds - unixEpoch)
            : Int64(exactly: unixEpoch - btsnoopMicroseconds).map { -$0 }
        return sinceUnixEpoch.map(Timestamp.init(microsecondsSinceUnixEpoch:))
    }
}
