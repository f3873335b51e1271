/// Meters a foot pod reports covering, from its 0x2A53 values:
/// - when this value and the previous one both carry a total distance, the difference of the totals;
/// - otherwise the speed integrated over the pod's two consecutive samples by the trapezoid rule (the
///   mean of both speeds times the time between their arrivals), but never across a gap longer than
///   `longestIntegratedGap` nor across a dropped link: the speed in between is unknown.
public struct RunningDistance: DistanceDerivation {
    public typealias ParseError = RunningSpeedCadenceError

    /// Above a sprinter's top speed (about 12.4 m/s): a total that grows faster was reset or belongs to
    /// another pod, and a faster speed reading is not integrated.
    public static let maximumPlausibleSpeed: Double = 12.5
    /// Pods notify about once a second: after five seconds without a sample the speed in between is a guess.
    public static let longestIntegratedGap: Double = 5

    private struct Sample {
        var time: Timestamp
        var speed: Double
        var totalDistance: UInt32?
    }

    private var previous: Sample?
    private var linkDroppedSincePrevious = false
    private let travel = PlausibleTravel(maximumSpeed: maximumPlausibleSpeed)

    public init() {}

    public mutating func metersCovered(by value: [UInt8], at time: Timestamp) throws(RunningSpeedCadenceError) -> Double {
        let measurement = try RunningSpeedCadenceMeasurement(parsing: value)
        let sample = Sample(time: time, speed: measurement.speedMetersPerSecond, totalDistance: measurement.totalDistance)
        let covered = previous.map { meters(from: $0, to: sample) } ?? 0
        previous = sample
        linkDroppedSincePrevious = false
        return covered
    }

    public mutating func linkDropped() {
        linkDroppedSincePrevious = true
    }

    private func meters(from earlier: Sample, to later: Sample) -> Double {
        let elapsed = later.time.seconds(since: earlier.time)
        if let total = later.totalDistance, let earlierTotal = earlier.totalDistance {
            // A smaller total is a reset pod: the new total is the base. (A u32 in 1/10 m holds
            // 429,496 km, so it does not roll over in a pod's life.)
            guard total >= earlierTotal else { return 0 }
            let meters = Double(total - earlierTotal) / RunningSpeedCadenceMeasurement.totalDistanceUnitsPerMeter
            return travel.allows(meters, over: elapsed) ? meters : 0
        }
        guard !linkDroppedSincePrevious, elapsed > 0, elapsed <= Self.longestIntegratedGap,
              earlier.speed <= Self.maximumPlausibleSpeed, later.speed <= Self.maximumPlausibleSpeed
        else { return 0 }
        return (earlier.speed + later.speed) / 2 * elapsed
    }
}
