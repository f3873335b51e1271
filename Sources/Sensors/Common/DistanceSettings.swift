/// What the user tells the bridge about their distance sensor that the sensor cannot tell itself.
public struct DistanceSettings: Sendable, Hashable {
    /// Meters per wheel revolution, for a bike sensor (`--wheel-circumference`, `wheelCircumference`).
    public var wheelCircumference: Double
    /// Whether the sensor's own heart rate may stand in for a missing strap (`--heart-rate-from`,
    /// `heartRateFrom`; a trace says it in its header).
    public var heartRateFrom: HeartRateSource

    /// Wheels people ride, from a child's bike to a fat bike: a bound that keeps a value in
    /// millimetres or inches out.
    public static let plausibleWheelCircumference = 0.5...4.0

    public init(wheelCircumference: Double = CyclingDistance.defaultWheelCircumference, heartRateFrom: HeartRateSource = .strap) {
        self.wheelCircumference = wheelCircumference
        self.heartRateFrom = heartRateFrom
    }
}
