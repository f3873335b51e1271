/// One CSC Measurement (GATT characteristic 0x2A5B) from a bike's speed and/or cadence sensor, as the
/// Bluetooth SIG's Cycling Speed and Cadence Service 1.0 and GATT Specification Supplement define it.
/// Both parts are cumulative: speed and distance come from the difference of two measurements.
public struct CyclingSpeedCadenceMeasurement: Sendable, Hashable {
    /// Wheel revolution data (flags bit 0); absent on a cadence-only sensor.
    public var wheel: WheelRevolutions?
    /// Crank revolution data (flags bit 1); absent on a speed-only sensor.
    public var crank: CrankRevolutions?

    public init(wheel: WheelRevolutions? = nil, crank: CrankRevolutions? = nil) {
        self.wheel = wheel
        self.crank = crank
    }

    public struct WheelRevolutions: Sendable, Hashable {
        /// Revolutions since the sensor was reset; rolls over at 2^32.
        public var cumulativeRevolutions: UInt32
        /// When the last revolution ended, in 1/1024 s on the sensor's own clock; rolls over every 64 s.
        public var lastEventTime: UInt16

        public init(cumulativeRevolutions: UInt32, lastEventTime: UInt16) {
            self.cumulativeRevolutions = cumulativeRevolutions
            self.lastEventTime = lastEventTime
        }
    }

    public struct CrankRevolutions: Sendable, Hashable {
        /// Revolutions since the sensor was reset; rolls over at 65,536.
        public var cumulativeRevolutions: UInt16
        /// When the last revolution ended, in 1/1024 s on the sensor's own clock; rolls over every 64 s.
        public var lastEventTime: UInt16

        public init(cumulativeRevolutions: UInt16, lastEventTime: UInt16) {
            self.cumulativeRevolutions = cumulativeRevolutions
            self.lastEventTime = lastEventTime
        }
    }

    /// The event times' unit: 1/1024 s.
    public static let eventTimeUnitsPerSecond: Double = 1024
}
