/// What the user tells the bridge about their distance sensor that the sensor cannot tell itself.
public struct DistanceSettings: Sendable, Hashable {
    /// Meters per wheel revolution, for a bike sensor (`--wheel-circumference`, `wheelCircumference`).
    public var wheelCircumference: Double

    public init(wheelCircumference: Double = CyclingDistance.defaultWheelCircumference) {
        self.wheelCircumference = wheelCircumference
    }
}
