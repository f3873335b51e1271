/// Turns one sensor's measurement values, in arrival order, into meters covered. Pure: each value
/// comes with its arrival time, and nothing reads a clock, so a replayed trace derives the same
/// distance as the live run did.
///
/// Every kind's derivation keeps the same promises (DESIGN §2b):
/// - the first measurement only sets the base and covers 0 m;
/// - a counter that goes backwards (the sensor restarted) or jumps forward further than anyone moves
///   in the time between (a restart or another sensor) is a new base, never counted: distance never
///   goes down, nor up by what was not covered;
/// - a malformed value throws and leaves the state as it was.
public protocol DistanceDerivation: Sendable {
    associatedtype ParseError: Error

    /// Meters covered between the previous accepted measurement and this one, never negative.
    mutating func metersCovered(by value: [UInt8], at time: Timestamp) throws(ParseError) -> Double

    /// The link to the sensor dropped. Speed cannot be integrated across it (nobody knows the speed
    /// meanwhile); a plausible advance of a cumulative counter across it is still counted, because
    /// the sensor kept measuring while we were away.
    mutating func linkDropped()
}
