/// One RSC Measurement (GATT characteristic 0x2A53) from a foot pod, as the Bluetooth SIG's Running
/// Speed and Cadence Service 1.0 and GATT Specification Supplement define it. Fields keep the wire's
/// units (what btmon shows); the `…Meters` properties convert.
public struct RunningSpeedCadenceMeasurement: Sendable, Hashable {
    /// Instantaneous speed in 1/256 m/s.
    public var speed: UInt16
    /// Instantaneous cadence: steps per minute.
    public var cadence: UInt8
    /// Stride length in 1/100 m; absent when the flags leave it out.
    public var strideLength: UInt16?
    /// Total distance since the pod was reset, in 1/10 m; absent when the flags leave it out (many
    /// pods never send it).
    public var totalDistance: UInt32?
    /// Running (flags bit 2 set) or walking.
    public var isRunning: Bool

    public init(speed: UInt16, cadence: UInt8, strideLength: UInt16? = nil, totalDistance: UInt32? = nil,
                isRunning: Bool) {
        self.speed = speed
        self.cadence = cadence
        self.strideLength = strideLength
        self.totalDistance = totalDistance
        self.isRunning = isRunning
    }

    public var speedMetersPerSecond: Double { Double(speed) / Self.speedUnitsPerMeterPerSecond }
    public var strideLengthMeters: Double? { strideLength.map { Double($0) / Self.strideLengthUnitsPerMeter } }
    public var totalDistanceMeters: Double? { totalDistance.map { Double($0) / Self.totalDistanceUnitsPerMeter } }

    /// The wire's units: speed in 1/256 m/s, stride length in 1/100 m, total distance in 1/10 m.
    public static let speedUnitsPerMeterPerSecond: Double = 256
    public static let strideLengthUnitsPerMeter: Double = 100
    public static let totalDistanceUnitsPerMeter: Double = 10
}
