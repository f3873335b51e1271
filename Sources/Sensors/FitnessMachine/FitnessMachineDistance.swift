/// Meters a fitness machine reports covering, from its data values (0x2ACD or 0x2AD2), with the
/// promises every derivation keeps (DistanceDerivation):
/// - while the machine sends Total Distance (uint24, 1 m since the console's training session
///   began), the difference of consecutive totals. A smaller total is a reset machine or a new
///   session on the console, and a jump further than `maximumPlausibleSpeed` allows is a restart or
///   another machine: both a new base, never counted. The total carries across a dropped link, as
///   the machine kept counting; a uint24 holds 16,777 km, so it does not roll over in a session.
/// - a machine that sends no total distance: its Instantaneous Speed integrated by the trapezoid rule
///   over consecutive speeds, never across a gap longer than `longestIntegratedGap` nor a dropped
///   link. Once a total has arrived, speeds are no longer integrated: the totals count it all.
/// Values with More Data set (the first part of a split record, FTMS §4.19) carry no speed; their
/// total, if any, counts like any other.
public struct FitnessMachineDistance<Data: FitnessMachineData>: DistanceDerivation {
    public typealias ParseError = FitnessMachineDataError

    /// Machines notify about once a second (FTMS §4.4.1, §4.9.1: "at a regular interval"): after five
    /// seconds without a speed the speed in between is a guess.
    public static var longestIntegratedGap: Double { 5 }

    /// The kind's bound: faster than anyone moves on it (a counter growing faster was reset).
    public let maximumPlausibleSpeed: Double
    private let travel: PlausibleTravel

    private var total: (meters: Int, time: Timestamp)?
    private var speed: (metersPerSecond: Double, time: Timestamp)?
    private var linkDroppedSinceSpeed = false

    public init(maximumPlausibleSpeed: Double) {
        self.maximumPlausibleSpeed = maximumPlausibleSpeed
        travel = PlausibleTravel(maximumSpeed: maximumPlausibleSpeed)
    }

    public mutating func metersCovered(by value: [UInt8], at time: Timestamp) throws(FitnessMachineDataError) -> Double {
        let data = try Data(parsing: value)
        // The value bringing the first total only sets its base: its speed still covers the time before.
        let countingTotals = total != nil
        var covered = 0.0
        if let meters = data.totalDistanceMeters {
            if let previous = total, meters >= previous.meters {
                let advance = Double(meters - previous.meters)
                if travel.allows(advance, over: time.seconds(since: previous.time)) { covered = advance }
            }
            total = (meters, time)
        }
        if let metersPerSecond = data.speedMetersPerSecond {
            if !countingTotals, let previous = speed, !linkDroppedSinceSpeed {
                covered += integrated(from: previous, to: (metersPerSecond, time))
            }
            speed = (metersPerSecond, time)
            linkDroppedSinceSpeed = false
        }
        return covered
    }

    public mutating func linkDropped() {
        linkDroppedSinceSpeed = true
    }

    private func integrated(from earlier: (metersPerSecond: Double, time: Timestamp),
                            to later: (metersPerSecond: Double, time: Timestamp)) -> Double {
        let elapsed = later.time.seconds(since: earlier.time)
        guard elapsed > 0, elapsed <= Self.longestIntegratedGap,
              earlier.metersPerSecond <= maximumPlausibleSpeed, later.metersPerSecond <= maximumPlausibleSpeed
        else { return 0 }
        return (earlier.metersPerSecond + later.metersPerSecond) / 2 * elapsed
    }
}
