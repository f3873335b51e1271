/// Meters a bike's wheel sensor reports covering, from its 0x2A5B values: the wheel revolutions
/// since the previous value times the wheel's circumference. A value without wheel data (a cadence
/// sensor's) covers 0 m and keeps the base; a repeated value (same count, same time) covers 0 m.
public struct CyclingDistance: DistanceDerivation {
    public typealias ParseError = CyclingSpeedCadenceError

    /// ISO 700×23c, the common road wheel; the user's wheel is a setting (DESIGN §2b lists others).
    public static let defaultWheelCircumference: Double = 2.096
    /// Above the fastest road descents (about 130 km/h): a count that grows faster was reset or
    /// belongs to another sensor.
    public static let maximumPlausibleSpeed: Double = 40

    /// Meters per wheel revolution.
    public let wheelCircumference: Double

    private struct WheelSample {
        var revolutions: UInt32
        var eventTime: UInt16
        var arrival: Timestamp
    }

    private var previous: WheelSample?
    private let travel = PlausibleTravel(maximumSpeed: maximumPlausibleSpeed)

    public init(wheelCircumference: Double = defaultWheelCircumference) {
        precondition(wheelCircumference > 0 && wheelCircumference.isFinite, "a wheel circumference is a positive length")
        self.wheelCircumference = wheelCircumference
    }

    public mutating func metersCovered(by value: [UInt8], at time: Timestamp) throws(CyclingSpeedCadenceError) -> Double {
        guard let wheel = try CyclingSpeedCadenceMeasurement(parsing: value).wheel else { return 0 }
        let sample = WheelSample(revolutions: wheel.cumulativeRevolutions, eventTime: wheel.lastEventTime, arrival: time)
        let covered = previous.map { meters(from: $0, to: sample) } ?? 0
        previous = sample
        return covered
    }

    /// Nothing to forget: the cumulative count carries across the drop, and the arrival times bound
    /// the gap where the sensor's 64-second event clock cannot.
    public mutating func linkDropped() {}

    private func meters(from earlier: WheelSample, to later: WheelSample) -> Double {
        // Modular: a count that rolled over past 2^32 still gives the revolutions in between, and a
        // count that went backwards (a restart) becomes a huge forward jump that the plausibility
        // test turns into a new base.
        let meters = Double(later.revolutions &- earlier.revolutions) * wheelCircumference
        // The sensor's clock says over how long the revolutions happened, even when their
        // notifications arrive bunched; modular too, as it rolls over every 64 s. Arrival times cover
        // longer gaps, such as a dropped link.
        let eventSeconds = Double(later.eventTime &- earlier.eventTime) / CyclingSpeedCadenceMeasurement.eventTimeUnitsPerSecond
        let elapsed = max(later.arrival.seconds(since: earlier.arrival), eventSeconds)
        return travel.allows(meters, over: elapsed) ? meters : 0
    }
}
